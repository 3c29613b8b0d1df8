// What recall reads of the tenants before it searches (cached per client): how many memories the readable
// tenants hold and how many exist in all (the vector planner's input), and the names of their speakers
// (a speaker's name in a query is matched by the speaker boost rather than by full text).
// $tenants (the tenant keys the read may see: graphmem.model.scopes)
MATCH (m:Memory) WHERE m.user_id IN $tenants
WITH count(m) AS user_count, collect(DISTINCT m.speaker)[..1000] AS speakers
CALL () { MATCH (n:Memory) RETURN count(n) AS total }
RETURN user_count, total, speakers
