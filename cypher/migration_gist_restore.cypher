// Migration (once per store, init(): graphmem.temporal.migrate.GIST_RESTORED): the summaries consolidate
// wrote that the decay job forgot before round 60, when a summary was no exception (docs/dynamics.md, "the
// gist outlives the details"), come back to the status they had, as memory_restore brings a memory back
// (strength kept: a restore by the engine is no use); the next decay run evaluates them. Without it the hard
// delete took them after its grace period, and the sources they stand for became unreachable for good.
// $batch: rows per transaction; $now: datetime
MATCH (m:Memory)
WHERE m.status = 'forgotten' AND m.forgotten_reason = 'decayed' AND coalesce(m.is_summary = true, false)
CALL (m) {
  SET m.status = coalesce(m.status_before_forgetting, 'dormant'), m.restored_at = $now,
      m.status_changed_at = $now, m.decay_due = datetime({epochSeconds: 0})
  REMOVE m.forgotten_at, m.forgotten_reason
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS updated
