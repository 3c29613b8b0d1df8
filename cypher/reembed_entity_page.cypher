// A page of entities (every user) with a name embedding, in id order after a cursor.
// $user_id: one tenant only (tests, repairs) or null for the whole store,
// $after: the last id of the previous page ('' at first), $limit: page size
MATCH (n:Entity)
WHERE n.id > $after AND n.embedding IS NOT NULL AND ($user_id IS NULL OR n.user_id = $user_id)
RETURN n.id AS id, n.name AS name
ORDER BY n.id
LIMIT $limit
