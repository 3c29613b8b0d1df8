// Forget job: hard-delete memories forgotten longer than the grace period (with their edges); never one a
// governance decision retained.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
MATCH (m:Memory)
WHERE ($user_id IS NULL OR m.user_id = $user_id) AND m.status = 'forgotten' AND NOT coalesce(m.retained, false)
  AND m.forgotten_at <= $now - duration({days: $p.hard_delete_grace_days})
CALL (m) {
  DETACH DELETE m
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS deleted
