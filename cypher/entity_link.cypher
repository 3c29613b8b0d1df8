// Entity view: ENTITY edges from memories to the entities they mention (bi-temporal).
// $links: list of {memory_id, entity_id, name} (valid from the memory's occurred_at)
// $user_id, $now
UNWIND $links AS l
MATCH (m:Memory {id: l.memory_id}) WHERE m.user_id = $user_id
MATCH (e:Entity {id: l.entity_id}) WHERE e.user_id = $user_id
CREATE (m)-[:ENTITY {weight: 1.0, name: l.name, valid_from: m.occurred_at, valid_to: null,
                     recorded_at: $now, expired_at: null}]->(e)
SET e.mention_count = coalesce(e.mention_count, 0) + 1
RETURN count(*) AS linked
