// Record how a job run ended.
// $id; $status: success | failed | interrupted; $counts: JSON text; $error: text or null; $at: datetime
MATCH (r:JobRun {id: $id})
SET r.status = $status, r.counts = $counts, r.error = $error, r.finished_at = $at, r.heartbeat_at = $at
RETURN {__properties__: {{property_pairs(r, [])}}} AS run
