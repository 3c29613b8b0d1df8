// Anonymization: delete a user's idempotency keys, $batch per transaction (auto-commit). Their ids hold the
// user id and the key the caller chose (add_messages, remember, ...) or `graphmem import`'s fingerprint of a
// message (graphmem.store.imports): kept, anyone holding a retried call or an imported file could still tell
// it was stored for the user. A retry with an old key, or a re-import, then writes anew. Idempotent.
// $user_id, $batch: rows per transaction
MATCH (k:IdempotencyKey) WHERE k.user_id = $user_id
CALL (k) {
  DETACH DELETE k
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS deleted
