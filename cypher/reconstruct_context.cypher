// Neighbours of memories that cannot stand alone: the turn each follows (FOLLOWS, current edge), the
// entities it and that turn mention, and the facts drawn from either that hold at $now as recorded by then
// (the rule of fact_at.cypher: a plan not started yet is not a fact now, the value it will replace is).
// $ids: memory ids; $tenants: the tenant keys the recall read (the previous turn is the memory's own tenant's)
// $now: the recall's clock. Every node read is the memory's tenant's: an edge alone (one made by hand) never
// brings another tenant's entity, fact or turn.
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
OPTIONAL CALL (m) {
  MATCH (p:Memory)-[f:FOLLOWS]->(m) WHERE p.user_id = m.user_id AND f.expired_at IS NULL
  RETURN p ORDER BY f.recorded_at DESC LIMIT 1
}
WITH m, p, [x IN [m, p] WHERE x IS NOT NULL] AS around
CALL (around) {
  UNWIND around AS x
  OPTIONAL MATCH (x)-[e:ENTITY]->(n:Entity) WHERE e.expired_at IS NULL AND n.user_id = x.user_id
  RETURN collect(DISTINCT n.name)[..5] AS entities
}
CALL (around) {
  UNWIND around AS x
  OPTIONAL MATCH (fa:Fact)-[:DERIVED_FROM]->(x)
  WHERE fa.user_id = x.user_id AND fa.status <> 'conflicted' AND fa.recorded_at <= $now AND fa.valid_from <= $now
    AND coalesce($now < {{fact_valid_to(fa, $now)}}, true)
  RETURN collect(DISTINCT [fa.key, fa.value])[..5] AS facts
}
RETURN m.id AS id, p.id AS previous_id, p.content AS previous, p.speaker AS previous_speaker, entities,
       facts
