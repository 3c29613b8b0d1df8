// Formation context, index plan: each new vector's most similar live memories of the same user, from the
// vector index asked for $fetch neighbours: over-fetched and filtered to the tenant after, or (the
// vector-filter block, Neo4j 2026.01+) the tenant's own $fetch nearest, filtered inside the index. `seen` is
// how many neighbours the index returned, so the caller knows whether asking for more could find more.
// Scores are Neo4j's cosine in [0, 1]; occurred_at comes as epoch microseconds (`occurred_us`: formation_neighbours).
// $user_id, $vectors: list of {i, embedding}, $k, $fetch (query(FILTERED + name): the filtered text)
UNWIND $vectors AS v
CALL (v) {
  // [no vector filter]
  CALL db.index.vector.queryNodes('memory_embedding', $fetch, v.embedding) YIELD node AS m, score
  // [end]
  // [vector filter] every name a SEARCH uses is used nowhere else in the query (see recall_pool)
  WITH v AS probe
  MATCH (near:Memory)
    SEARCH near IN (VECTOR INDEX memory_embedding FOR probe.embedding WHERE near.user_id = $user_id
                    LIMIT $fetch)
    SCORE AS near_score
  WITH near AS m, near_score AS score
  // [end]
  WITH m, score ORDER BY score DESC
  WITH collect(CASE WHEN m.user_id = $user_id AND NOT coalesce(m.status, 'active') IN ['forgotten', 'superseded']
                    THEN {id: m.id, score: score, content: m.content, session_id: m.session_id,
                          occurred_us: CASE WHEN {{typed_time(m.occurred_at, null)}} IS NOT NULL // years 1-9999
                                            THEN m.occurred_at.epochSeconds * 1000000 + m.occurred_at.microsecond END}
               END) AS hits, count(*) AS seen
  RETURN hits[..$k] AS hits, seen
}
RETURN v.i AS i, hits, seen
