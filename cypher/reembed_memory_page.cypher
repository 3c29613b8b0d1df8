// A page of memories (every user) with an embedding, in id order after a cursor, with the text to embed.
// $user_id: one tenant only (tests, repairs) or null for the whole store,
// $after: the last id of the previous page ('' at first), $limit: page size
MATCH (m:Memory)
WHERE m.id > $after AND m.embedding IS NOT NULL AND ($user_id IS NULL OR m.user_id = $user_id)
RETURN m.id AS id, m.content AS content, m.speaker AS speaker, m.role AS role, m.core_label AS core_label,
       m.context_text AS context_text
ORDER BY m.id
LIMIT $limit
