// Record feedback on a memory of one tenant and adjust its strength and importance.
// $memory_id, $user_id, $useful: boolean, $strength, $importance (new values), $id, $now: datetime,
// $query: the query the feedback judges (or null: the latest recall that returned the memory)
MATCH (m:Memory {id: $memory_id}) WHERE m.user_id = $user_id
CREATE (f:Feedback {id: $id, user_id: $user_id, useful: $useful, at: $now})-[:ABOUT]->(m)
SET m.strength = $strength, m.importance = $importance, f.query = $query
RETURN m.id AS id
