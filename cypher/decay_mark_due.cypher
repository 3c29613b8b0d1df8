// A change of a parameter the decay job reads (rates, floors, multipliers, factor weights, status thresholds:
// graphmem.automation.config.DUE_MARKS) makes every live memory due, so the next decay run evaluates it
// under the new configuration. Without it a memory kept the coefficients and next status change computed
// under the old one until its stored decay_due came (for a dormant or P0 memory: never). Memories already
// due (decay_due at or before the epoch) or never evaluated (no decay_due) are left as they are; the next run
// takes them anyway. Every tenant: one configuration decays every memory of the store.
// $batch: rows per inner transaction
MATCH (m:Memory)
WHERE m.decay_due > datetime({epochSeconds: 0}) AND m.status IN ['active', 'weak', 'dormant']
CALL (m) {
  SET m.decay_due = datetime({epochSeconds: 0})
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS marked
