// Migration (init): live memories written before decay_due existed (no decay_due, no coefficients) become due,
// so the next decay run computes their coefficients once; until then they read their stored retention and
// strength ("not decayed yet": graphmem.model.anchors). Idempotent; a marker node records that it ran.
// $batch: rows per transaction
MATCH (m:Memory)
WHERE m.decay_due IS NULL AND m.retention_scale IS NULL AND m.status IN ['active', 'weak', 'dormant']
CALL (m) {
  SET m.decay_due = datetime({epochSeconds: 0})
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS marked
