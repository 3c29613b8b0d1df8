// Formation context, index plan: each new vector's most similar live memories of the same user, from the
// vector index asked for $fetch neighbours and filtered to the tenant (Neo4j 5.26 cannot filter inside the
// index). `seen` is how many neighbours the index returned, so the caller knows whether asking for more
// could find more. Scores are Neo4j's cosine in [0, 1].
// $user_id, $vectors: list of {i, embedding}, $k, $fetch
UNWIND $vectors AS v
CALL (v) {
  CALL db.index.vector.queryNodes('memory_embedding', $fetch, v.embedding) YIELD node AS m, score
  WITH m, score ORDER BY score DESC
  WITH collect(CASE WHEN m.user_id = $user_id AND NOT coalesce(m.status, 'active') IN ['forgotten', 'superseded']
                    THEN {id: m.id, score: score, content: m.content, occurred_at: m.occurred_at,
                          session_id: m.session_id} END) AS hits, count(*) AS seen
  RETURN hits[..$k] AS hits, seen
}
RETURN v.i AS i, hits, seen
