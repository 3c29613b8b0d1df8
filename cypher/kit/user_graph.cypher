// A user's memory graph: their memories and every edge between them or to entities and sessions.
// :param user_id => 'alice'
// :param limit => 300
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status <> 'forgotten'
WITH m ORDER BY m.created_at DESC LIMIT toInteger($limit)
OPTIONAL MATCH (m)-[r]->(x)
WHERE x.user_id = $user_id
RETURN m, r, x
