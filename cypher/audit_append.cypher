// Append audit events (ids and counts only, never content).
// $events: list of {id, action, actor, user_id, user_hash, target_ids, version, idempotency_key, details}
// $now: datetime
UNWIND $events AS e
CREATE (a:AuditEvent {id: e.id})
SET a.action = e.action, a.actor = e.actor, a.user_id = e.user_id, a.user_hash = e.user_hash,
    a.target_ids = e.target_ids, a.version = e.version, a.idempotency_key = e.idempotency_key,
    a.details = e.details, a.at = $now
RETURN count(a) AS recorded
