// The most recent memories of a tenant (the session-history section of an assembled context).
// $user_id, $k
MATCH (m:Memory) WHERE m.user_id = $user_id AND NOT m.status IN ['forgotten', 'superseded']
RETURN m {.*, embedding: null, context_embedding: null} AS memory
ORDER BY m.created_at DESC
LIMIT $k
