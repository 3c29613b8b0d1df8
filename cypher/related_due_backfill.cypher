// init() migration: RELATED_TO edges the decay job could not find through its indexes (no weight_due: written
// before it existed; or no rate or floor under a later weight_due: written outside graphmem) get weight_due at
// the epoch, so that its next run evaluates them through the related_weight_due index (it scans no edges).
// Bounded batches (the caller loops until fewer than $batch are updated); idempotent; weights are untouched.
// $batch: edges per call
MATCH ()-[r:RELATED_TO]->()
WHERE r.weight_due IS NULL
   OR ((r.weight_rate IS NULL OR r.weight_floor IS NULL) AND r.weight_due <> datetime({epochSeconds: 0}))
WITH r LIMIT $batch
SET r.weight_due = datetime({epochSeconds: 0})
RETURN count(*) AS updated
