// Decay job: RELATED_TO weights fade by $p.edge_decay per day from their base weight (set when the edge was
// made or last reweighted) since weight_updated_at: weight = base · (1 - edge_decay)^days. Only the weight
// changes on a rerun (the base and its time are written once), so a rerun at the same $now changes nothing.
// The inner transactions run concurrently (one per server core; each writes only its own relationships).
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
CALL () { // one tenant through the user_id index; all tenants by a label scan (only when $user_id is null)
  MATCH (a:Memory) WHERE a.user_id = $user_id RETURN a
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (a:Memory) RETURN a
}
MATCH (a)-[r:RELATED_TO]->(:Memory)
WHERE r.expired_at IS NULL
WITH r, coalesce(r.weight_base, r.weight, 1.0) AS base,
     coalesce(r.weight_updated_at, r.recorded_at, $now) AS since
WITH r, base, since, ($now.epochSeconds - since.epochSeconds) / 86400.0 AS days
CALL (r, base, since, days) {
  SET r.weight_base = base, r.weight_updated_at = since,
      r.weight = base * (1.0 - $p.edge_decay) ^ CASE WHEN days < 0 THEN 0.0 ELSE days END
} IN CONCURRENT TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges
