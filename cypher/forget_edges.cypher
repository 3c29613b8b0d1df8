// Forget job: remove RELATED_TO edges whose weight fell below the floor.
// $user_id: tenant, or null for all; $p: DynamicsParams map; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (a:Memory) WHERE a.user_id = $user_id RETURN a
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (a:Memory) RETURN a
}
MATCH (a)-[r:RELATED_TO]->(b:Memory)
WHERE coalesce(r.weight, 1.0) < $p.edge_weight_floor
CALL (r, a, b) {
  SET a.decay_due = datetime({epochSeconds: 0}), b.decay_due = datetime({epochSeconds: 0}) // association is a decay input
  DELETE r
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges_removed
