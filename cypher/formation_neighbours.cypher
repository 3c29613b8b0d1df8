// Formation context, exact plan: each new vector's most similar existing memories of the same user
// (near-duplicates, RELATED_TO and CAUSES candidates). Scores are Neo4j's cosine in [0, 1].
// $user_id, $vectors: list of {i, embedding}, $k. occurred_at comes as epoch microseconds (`occurred_us`, as in
// formation_tenant_vectors): the driver decodes a datetime in ~35 µs, and a batch of 50 reads 500 of them.
UNWIND $vectors AS v
CALL (v) {
  MATCH (m:Memory) WHERE m.user_id = $user_id AND NOT coalesce(m.status, 'active') IN ['forgotten', 'superseded']
  WITH m, {{typed_cosine(m.embedding, v.embedding)}} AS score WHERE score IS NOT NULL
  ORDER BY score DESC
  LIMIT $k
  RETURN collect({id: m.id, score: score, content: m.content, session_id: m.session_id,
                  occurred_us: CASE WHEN {{typed_time(m.occurred_at, null)}} IS NOT NULL // years 1-9999
                                    THEN m.occurred_at.epochSeconds * 1000000 + m.occurred_at.microsecond END}) AS hits
}
RETURN v.i AS i, hits
