// Forget job: remove RELATED_TO edges whose weight fell below the floor.
// $user_id: tenant, or null for all; $p: DynamicsParams map; $batch: rows per transaction
MATCH (a:Memory)-[r:RELATED_TO]->(:Memory)
WHERE ($user_id IS NULL OR a.user_id = $user_id) AND coalesce(r.weight, 1.0) < $p.edge_weight_floor
CALL (r) {
  DELETE r
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges_removed
