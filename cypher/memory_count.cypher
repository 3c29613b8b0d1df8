// How many of one tenant's memories memory_list would page through: the same filters
// (fragments/memory_listed), read through the tenant's user_id index; a separate read, run only when a
// caller asks for the total (mem.memories.count, the REST list's X-Total-Count, the CLI's "of N").
// $user_id: tenant key (a user's id, or a shared scope's key: docs/scopes.md); $statuses: list of status
// texts; $memory_type, $session_id: text or null; $tags: list (empty: any)
MATCH (m:Memory)
WHERE m.user_id = $user_id AND {{memory_listed(m, null)}}
RETURN count(m) AS total
