// Entity resolution by embedding: for each new name, the user's most similar existing entity (cosine in [0, 1]).
// $user_id, $names: list of {key, embedding}, $min_score, $k: entities per name
// (a user with many entities asks entity_similar_index instead: graphmem.formation.gather.ENTITY_SCAN_MAX)
UNWIND $names AS n
CALL (n) {
  MATCH (e:Entity) WHERE e.user_id = $user_id AND e.key <> n.key AND e.embedding IS NOT NULL
  WITH e, e.embedding AS v
  WHERE {{typed_vector(v, size(n.embedding))}} // only vectors the cosine accepts (a user's entities: a few hundred)
  WITH e, {{typed_cosine(v, n.embedding)}} AS score
  WHERE score >= $min_score
  ORDER BY score DESC
  LIMIT $k
  RETURN collect({id: e.id, key: e.key, score: score}) AS matches
}
RETURN n.key AS key, matches
