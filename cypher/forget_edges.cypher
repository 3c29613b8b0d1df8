// Forget job: remove RELATED_TO edges whose weight, derived at $now (cypher/fragments/edge_weight_now.cypher),
// fell below the floor. Reads only due edges (weight_due <= $now, through the relationship range index
// related_weight_due): the decay job stores when each edge's weight crosses the floor, and every writer of a
// weight sets weight_due to the epoch. An edge the decay job never evaluated (no weight_due) is pruned once it
// has been (the decay job's first run over it is the migration). One tenant: the due edges of every tenant
// are read and filtered by the start memory's user_id (RELATED_TO edges carry no user_id).
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
MATCH (a:Memory)-[r:RELATED_TO]->(b:Memory)
USING INDEX SEEK r:RELATED_TO(weight_due) // the planner scans the whole index without it
WHERE r.weight_due <= $now AND ($user_id IS NULL OR a.user_id = $user_id)
  AND coalesce({{edge_weight_now(r, $now)}}, 1.0) < $p.edge_weight_floor
WITH r, a, b, coalesce(b.user_id = a.user_id, false) AS own
CALL (r, a, b, own) {
  SET a.decay_due = datetime({epochSeconds: 0}) // association is a decay input: both ends' (the other end
  FOREACH (_ IN CASE WHEN own THEN [1] ELSE [] END | SET b.decay_due = datetime({epochSeconds: 0})) // if ours)
  DELETE r
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges_removed
