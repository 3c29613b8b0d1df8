// Forget job: hard-delete memories forgotten longer than the grace period (with their edges); never one a
// governance decision retained, nor a source a summary replaced (kept for audits and as_of reads), nor the
// statement a current fact derives from (fragments/backs_fact: it stays forgotten, as the fact's evidence).
// Specification: graphmem.model.lifecycle.hard_deletes.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status = 'forgotten' AND NOT coalesce(m.retained, false) AND m.summarized_by IS NULL
  AND m.forgotten_at <= $now - duration({days: $p.hard_delete_grace_days}) AND NOT {{backs_fact(m, null)}}
CALL (m) {
  // the neighbours lose an association (a decay input): the next decay run evaluates them (the
  // tenant's own: an edge made by hand into another tenant marks nothing there)
  FOREACH (o IN [(m)-[:RELATED_TO]-(o:Memory) WHERE o.user_id = m.user_id | o] | SET o.decay_due = datetime({epochSeconds: 0}))
  DETACH DELETE m
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS deleted
