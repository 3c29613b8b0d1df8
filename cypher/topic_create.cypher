// Topics job, write (2/2): one Topic node per cluster with IN_TOPIC edges from its memories.
// $topics: list of {id, name, keywords, entities, size, members}; $user_id: tenant; $now: datetime
UNWIND $topics AS t
CREATE (x:Topic {id: t.id})
SET x.user_id = $user_id, x.name = t.name, x.keywords = t.keywords, x.entities = t.entities, x.size = t.size,
    x.created_at = $now
WITH x, t
CALL (x, t) {
  UNWIND t.members AS mid
  MATCH (m:Memory {id: mid}) WHERE m.user_id = $user_id
  CREATE (m)-[:IN_TOPIC {recorded_at: $now}]->(x)
  RETURN count(*) AS linked
}
RETURN count(x) AS topics, sum(linked) AS memberships
