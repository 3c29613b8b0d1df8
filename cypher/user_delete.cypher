// GDPR deletion: hard-delete every node of a user with its relationships, in batches (auto-commit).
// Audit events are kept (redacted separately by user_audit_redact).
// $user_id, $batch: rows per transaction
MATCH (n) WHERE n.user_id = $user_id AND NOT n:AuditEvent
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS deleted
