// Anonymization: a user's audit events forget the idempotency key each write was called with (the key of a
// `graphmem import` batch is a hash of its messages' fingerprints), as a deletion's redaction does
// (user_audit_redact); the rest of each event stays. $batch per transaction (auto-commit). Idempotent.
// $user_hash, $batch: rows per transaction
MATCH (a:AuditEvent) WHERE a.user_hash = $user_hash AND a.idempotency_key IS NOT NULL
CALL (a) {
  SET a.idempotency_key = null
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS unkeyed
