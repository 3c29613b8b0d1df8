// One tenant's memories, the latest first by when they happened (occurred_at: the message time, as the
// timeline orders them), a page at a time; filters (fragments/memory_listed, shared with memory_count):
// statuses, memory type, session, tags (all of them). The tenant is read through its user_id index and its
// top offset + limit kept (no index gives this order, a (user_id, occurred_at) index included): 121 ms a page
// at a 100,000-memory tenant among 1M, where ordering by coalesce(occurred_at, created_at) then id took
// 212-239 ms (lab, round 37).
// Retention and strength derived at $now, date-times packed, as memory_fetch returns them.
// $user_id: tenant key (a user's id, or a shared scope's key: docs/scopes.md); $statuses: list of status
// texts; $memory_type, $session_id: text or null; $tags: list (empty: any); $offset, $limit: the page;
// $now: the reader's clock (null: the server's)
MATCH (m:Memory)
WHERE m.user_id = $user_id AND {{memory_listed(m, null)}}
WITH m ORDER BY m.occurred_at DESC, elementId(m) // ties in a stable order without reading a property
SKIP $offset LIMIT $limit
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding', 'retention_scale', 'retention_rate', 'strength_rate', 'strength_floor'])}},
        retention: {{retention_now(m, coalesce($now, datetime()))}},
        strength: {{strength_now(m, coalesce($now, datetime()))}}} AS memory
