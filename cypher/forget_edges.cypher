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
// ... once $p.forget_min_newer of the user's memories were created after the edge was last strengthened
// (weight_updated_at, else recorded_at; an edge with neither counts as old), as forget_soft takes memories:
// forgetting makes room for what came since, so a user who stays away keeps their associations too. One
// seek per user in the (user_id, created_at) index's order; summaries and memories after $now not counted.
WITH a.user_id AS uid, collect([r, a, b]) AS found
CALL (uid) {
  MATCH (x:Memory) WHERE x.user_id = uid AND x.created_at <= $now AND NOT coalesce(x.is_summary = true, false)
  WITH x ORDER BY x.user_id DESC, x.created_at DESC // the index's order: reads forget_min_newer rows, no sort
  SKIP CASE WHEN $p.forget_min_newer > 0 THEN $p.forget_min_newer - 1 ELSE 0 END LIMIT 1
  RETURN collect(x.created_at)[0] AS newer_from // one row always (null: fewer memories than that)
}
UNWIND found AS f
WITH f[0] AS r, f[1] AS a, f[2] AS b, newer_from
WHERE $p.forget_min_newer = 0
   OR coalesce({{typed_time(r.weight_updated_at, null)}}, {{typed_time(r.recorded_at, null)}},
               datetime({epochSeconds: 0})) < newer_from
WITH r, a, b, coalesce(b.user_id = a.user_id, false) AS own
CALL (r, a, b, own) {
  SET a.decay_due = datetime({epochSeconds: 0}) // association is a decay input: both ends' (the other end
  FOREACH (_ IN CASE WHEN own THEN [1] ELSE [] END | SET b.decay_due = datetime({epochSeconds: 0})) // if ours)
  DELETE r
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges_removed
