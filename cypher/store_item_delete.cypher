// LangGraph store: delete an item (soft: status forgotten, like any forgotten memory; restorable).
// $user_id, $namespace, $key, $now
MATCH (m:StoreItem)
WHERE m.user_id = $user_id AND m.store_ns = $namespace AND m.store_key = $key AND m.status <> 'forgotten'
SET m.status_before_forgetting = m.status, m.status = 'forgotten', m.forgotten_at = $now,
    m.forgotten_reason = 'deleted', m.status_changed_at = $now
RETURN m.id AS id
