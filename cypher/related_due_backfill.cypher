// init() migration: RELATED_TO edges written before weight_due existed get it at the epoch, so that the decay
// job's next run over all tenants evaluates them through the related_weight_due index (it scans no edges).
// Bounded batches (the caller loops until fewer than $batch are updated); idempotent.
// $batch: edges per call
MATCH ()-[r:RELATED_TO]->() WHERE r.weight_due IS NULL
WITH r LIMIT $batch
SET r.weight_due = datetime({epochSeconds: 0})
RETURN count(*) AS updated
