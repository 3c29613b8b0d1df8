// A running job's heartbeat and counts so far (one step done).
// $id; $counts: JSON text; $at: datetime
MATCH (r:JobRun {id: $id})
SET r.counts = $counts, r.heartbeat_at = $at
RETURN r.id AS id
