// After a deletion: a user's audit events keep action, time and user_hash, lose the user id and target ids.
// $user_hash
MATCH (a:AuditEvent) WHERE a.user_hash = $user_hash
SET a.user_id = null, a.target_ids = [], a.idempotency_key = null, a.redacted = true
RETURN count(a) AS redacted
