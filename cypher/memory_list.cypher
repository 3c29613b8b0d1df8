// One tenant's memories, the latest first by when they happened (occurred_at: the message time, as the
// timeline orders them), a page at a time; filters (fragments/memory_listed, shared with memory_count):
// statuses, memory type, session, tags (all of them). The tenant is read in the order of its (user_id,
// occurred_at) index, to the end of the page (round 51; before, its user_id index and a sort of the whole
// tenant: 121 ms a page at a 100,000-memory tenant among 1M, lab, round 37).
// Each memory as memory_fetch returns it (fragments/fetched_memory: retention and strength derived at $now,
// date-times packed).
// $user_id: tenant key (a user's id, or a shared scope's key: docs/scopes.md); $statuses: list of status
// texts; $memory_type, $session_id: text or null; $tags: list (empty: any); $offset, $limit: the page;
// $now: the reader's clock (null: the server's)
MATCH (m:Memory) USING INDEX m:Memory(user_id, occurred_at) // the planner's own choice varied with statistics
WHERE m.user_id = $user_id AND {{memory_listed(m, null)}}
// the order of the index memory_user_occurred (its first key is fixed here: a first page reads about a page,
// not the tenant), ties in a stable order without reading a property
WITH m ORDER BY m.user_id DESC, m.occurred_at DESC, elementId(m)
SKIP $offset LIMIT $limit
RETURN {{fetched_memory(m, coalesce($now, datetime()))}} AS memory
