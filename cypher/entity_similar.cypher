// Entity resolution by embedding: for each new name, the user's most similar existing entity (cosine in [0, 1]).
// $user_id, $names: list of {key, embedding}, $min_score
UNWIND $names AS n
CALL (n) {
  MATCH (e:Entity) WHERE e.user_id = $user_id AND e.key <> n.key AND e.embedding IS NOT NULL
    AND e.embedding = e.embedding // no NaN (the cosine would fail)
  WITH e, {{typed_cosine(e.embedding, n.embedding)}} AS score // null for a vector replaced by hand
  WHERE score >= $min_score
  ORDER BY score DESC
  LIMIT 3
  RETURN collect({id: e.id, key: e.key, score: score}) AS matches
}
RETURN n.key AS key, matches
