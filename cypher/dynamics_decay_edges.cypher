// Decay job: RELATED_TO weights are derived at read time (cypher/fragments/edge_weight_now.cypher: weight =
// weight_base · (1 - weight_rate)^days since weight_updated_at); this step writes only the edges that need
// it: never evaluated (weight_due at the epoch: made since the last run, or by an older graphmem and marked by
// init: the migration, which takes the base from the stored weight and the anchor from the recording when they
// are missing), reweighted (every writer of a weight sets weight_due to the epoch), due (weight_due <= $now), or whose coefficients
// moved (weight_rate <> $p.edge_decay, weight_floor <> $p.edge_weight_floor: a config change). For each it
// stores the rate, the floor and weight_due, when the weight falls below the floor (closed form, whole
// seconds, never late; 9999-01-01: never; at most 36,500 days ahead), and writes only if one of them moved,
// so a rerun at the same $now writes nothing. The base weight (a memory decay input) never changes here.
// Finding the edges: only index seeks, never a scan of a tenant's or every edge: the due edges
// (related_weight_due) and the edges evaluated under other coefficients (related_weight_rate,
// related_weight_floor); for one tenant, those of every tenant filtered by the start memory's user_id
// (RELATED_TO edges carry no user_id; on a normal night few edges are due). Edges written before weight_due
// existed get it at the epoch from init() (related_due_backfill), so they are due like new ones. Writes touch
// only the edges themselves. Specification: graphmem.model.edge_weights.evaluate.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
CALL () {
  MATCH (a:Memory)-[r:RELATED_TO]->() USING INDEX SEEK r:RELATED_TO(weight_due)
  WHERE r.weight_due <= $now AND ($user_id IS NULL OR a.user_id = $user_id) RETURN r
  UNION
  MATCH (a:Memory)-[r:RELATED_TO]->() USING INDEX SEEK r:RELATED_TO(weight_rate)
  WHERE r.weight_rate < $p.edge_decay AND ($user_id IS NULL OR a.user_id = $user_id) RETURN r
  UNION
  MATCH (a:Memory)-[r:RELATED_TO]->() USING INDEX SEEK r:RELATED_TO(weight_rate)
  WHERE r.weight_rate > $p.edge_decay AND ($user_id IS NULL OR a.user_id = $user_id) RETURN r
  UNION
  MATCH (a:Memory)-[r:RELATED_TO]->() USING INDEX SEEK r:RELATED_TO(weight_floor)
  WHERE r.weight_floor < $p.edge_weight_floor AND ($user_id IS NULL OR a.user_id = $user_id) RETURN r
  UNION
  MATCH (a:Memory)-[r:RELATED_TO]->() USING INDEX SEEK r:RELATED_TO(weight_floor)
  WHERE r.weight_floor > $p.edge_weight_floor AND ($user_id IS NULL OR a.user_id = $user_id) RETURN r
}
WITH r WHERE r.expired_at IS NULL
  AND (r.weight_due IS NULL OR r.weight_due <= $now OR r.weight_rate IS NULL OR r.weight_rate <> $p.edge_decay
       OR r.weight_floor IS NULL OR r.weight_floor <> $p.edge_weight_floor)
WITH r, coalesce({{typed_number(r.weight_base, null)}}, {{typed_number(r.weight, 1.0)}}) AS base,
     coalesce({{typed_time(r.weight_updated_at, null)}}, {{typed_time(r.recorded_at, $now)}}) AS since,
     $p.edge_decay AS rate, $p.edge_weight_floor AS cutoff
WITH r, base, since, rate, cutoff,
     CASE WHEN base < cutoff OR (cutoff > 0 AND rate >= 1.0) THEN toFloat(since.epochSeconds)
          WHEN cutoff <= 0 OR rate <= 0 OR log(1.0 - rate) = 0 THEN null
          ELSE since.epochSeconds + 86400.0 * log(cutoff / base) / log(1.0 - rate) END AS x
WITH r, base, since, rate, cutoff,
     CASE WHEN x IS NULL THEN datetime('9999-01-01T00:00:00Z')
          ELSE datetime({epochSeconds: toInteger(floor(
            CASE WHEN x < $now.epochSeconds + 36500.0 * 86400.0 THEN x ELSE $now.epochSeconds + 36500.0 * 86400.0 END))})
     END AS due
WITH r, base, since, rate, cutoff, due
WHERE coalesce(r.weight_rate <> rate OR r.weight_floor <> cutoff OR r.weight_due <> due
               OR r.weight_base <> base OR r.weight_updated_at <> since, true)
CALL (r, base, since, rate, cutoff, due) { // writes only r: no node is shared between batches
  SET r.weight = CASE WHEN r.weight_rate IS NULL THEN base ELSE r.weight END, // the stored weight is the anchor's
      r.weight_base = base, r.weight_updated_at = since, r.weight_rate = rate, r.weight_floor = cutoff,
      r.weight_due = due
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges
