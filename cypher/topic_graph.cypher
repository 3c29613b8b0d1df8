// Topics job, read: a user's live memories with their RELATED_TO edges among live memories (weight =
// similarity, decayed: derived at $now, cypher/fragments/edge_weight_now.cypher) and the names of the
// entities they mention.
// $user_id: tenant; $live: live statuses; $now: datetime (the rebuild's clock)
MATCH (m:Memory) WHERE m.user_id = $user_id AND m.status IN $live
CALL (m) {
  OPTIONAL MATCH (m)-[r:RELATED_TO]->(o:Memory)
  WHERE o.user_id = $user_id AND o.status IN $live AND r.expired_at IS NULL
  RETURN collect({dst: o.id, weight: {{edge_weight_now(r, $now)}}}) AS links
}
CALL (m) {
  OPTIONAL MATCH (m)-[e:ENTITY]->(n:Entity) WHERE e.expired_at IS NULL
  RETURN collect(DISTINCT n.name) AS entities
}
RETURN m.id AS id, m.content AS content, [l IN links WHERE l.dst IS NOT NULL] AS links, entities
