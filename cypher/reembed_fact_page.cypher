// A page of fact versions (every user) with a text embedding (stored by context(): fact_embedding_set), in id
// order after a cursor.
// $user_id: one tenant only (tests, repairs) or null for the whole store,
// $after: the last id of the previous page ('' at first), $limit: page size
MATCH (f:Fact)
WHERE f.id > $after AND f.embedding IS NOT NULL AND ($user_id IS NULL OR f.user_id = $user_id)
RETURN f.id AS id, f.key AS key, f.value AS value
ORDER BY f.id
LIMIT $limit
