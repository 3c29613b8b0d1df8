// Formation context, index plan (large tenants): like formation_neighbours, from the vector index,
// over-fetched and filtered to the tenant.
// $user_id, $vectors: list of {i, embedding}, $k, $fetch
UNWIND $vectors AS v
CALL (v) {
  CALL db.index.vector.queryNodes('memory_embedding', $fetch, v.embedding) YIELD node AS m, score
  WITH m, score WHERE m.user_id = $user_id AND NOT coalesce(m.status, 'active') IN ['forgotten', 'superseded']
  ORDER BY score DESC
  LIMIT $k
  RETURN collect({id: m.id, score: score, content: m.content, occurred_at: m.occurred_at,
                  session_id: m.session_id}) AS hits
}
RETURN v.i AS i, hits
