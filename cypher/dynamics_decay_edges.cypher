// Decay job: RELATED_TO weights fade by $p.edge_decay per day since they last changed (idempotent).
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
MATCH (a:Memory)-[r:RELATED_TO]->(:Memory)
WHERE ($user_id IS NULL OR a.user_id = $user_id) AND r.expired_at IS NULL
CALL (r) {
  WITH r, duration.inSeconds(coalesce(r.weight_updated_at, r.recorded_at, $now), $now).seconds / 86400.0 AS days
  SET r.weight = coalesce(r.weight, 1.0) * (1.0 - $p.edge_decay) ^ CASE WHEN days < 0 THEN 0.0 ELSE days END,
      r.weight_updated_at = $now
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges
