// Entity resolution through the entity vector index: for each new name, the user's most similar stored
// entities (cosine in [0, 1]), what entity_similar finds by scanning every entity of the user, at a cost that
// does not grow with them. Run only where the index filters by tenant inside it (Neo4j 2026.01+) and is
// online (graphmem.formation.gather); the plain text (an over-fetch filtered after) only keeps the file valid
// on a server that cannot parse SEARCH.
// $user_id, $names: list of {key, embedding}, $min_score, $k: entities per name
UNWIND $names AS n
CALL (n) {
  // [vector filter]
  MATCH (hit:Entity)
    SEARCH hit IN (VECTOR INDEX entity_embedding FOR n.embedding WHERE hit.user_id = $user_id LIMIT $k + 1)
  // [end]
  // [no vector filter]
  CALL db.index.vector.queryNodes('entity_embedding', $k + 1, n.embedding) YIELD node AS hit
  // [end]
  // the exact cosine, as the scan computes it: the index ranks by quantized vectors (scores off by up to
  // ~0.003), and the merge rule compares the score with a threshold
  WITH hit, {{typed_cosine(hit.embedding, n.embedding)}} AS score
  WHERE hit.user_id = $user_id AND hit.key <> n.key AND score >= $min_score
  ORDER BY score DESC
  LIMIT $k
  RETURN collect({id: hit.id, key: hit.key, score: score}) AS matches
}
RETURN n.key AS key, matches
