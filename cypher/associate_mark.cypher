// Associate job (after a full GDS kNN pass over a tenant): mark its live embedded memories as linked, so the
// next runs link only newer memories.
// $user_id: the tenant; $now: datetime; $batch: rows per transaction
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status IN ['active', 'weak', 'dormant'] AND m.embedding IS NOT NULL
  AND m.associated_at IS NULL
CALL (m) {
  SET m.associated_at = $now
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS marked
