// What recall reads of the tenants before it searches (cached per client): how many memories the readable
// tenants hold and how many exist in all (the vector planner's input), the names of their speakers
// (a speaker's name in a query is matched by the speaker boost rather than by full text), and the people in
// the user's life, their current relation facts as [tenant, key, value, valid from] (graphmem.model.relations:
// "my sister" in a question is Ana): the one-holder roles $roles first, then up to 200 keys `person:<name>`,
// the latest first; each an index seek on Fact(user_id, key).
// $tenants (the tenant keys the read may see: graphmem.model.scopes), $roles
MATCH (m:Memory) WHERE m.user_id IN $tenants
WITH count(m) AS user_count, collect(DISTINCT m.speaker)[..1000] AS speakers
CALL () { MATCH (n:Memory) RETURN count(n) AS total }
CALL () {
  MATCH (f:Fact) WHERE f.user_id IN $tenants AND f.key IN $roles AND f.status = 'current'
  RETURN collect([f.user_id, f.key, toStringOrNull(f.value), f.valid_from]) AS roles
}
CALL () {
  MATCH (f:Fact) WHERE f.user_id IN $tenants AND f.key STARTS WITH 'person:' AND f.status = 'current'
  WITH f ORDER BY f.valid_from DESC LIMIT 200
  RETURN collect([f.user_id, f.key, toStringOrNull(f.value), f.valid_from]) AS people
}
RETURN user_count, total, speakers, roles + people AS people
