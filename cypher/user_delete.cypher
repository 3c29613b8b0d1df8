// GDPR deletion: hard-delete the given nodes of a user (element ids from user_nodes) with their
// relationships, in batches (auto-commit). Audit events are kept (redacted separately by user_audit_redact).
// $ids: element ids, $batch: rows per transaction
UNWIND $ids AS id
CALL (id) {
  MATCH (n) WHERE elementId(n) = id
  DETACH DELETE n
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS deleted
