// Record the start of a job run.
// $run: {id, job, user_id, started_at, as_of, trigger, host, pid, owner (graphmem.store.owners.owner),
//        config_version}
CREATE (r:JobRun)
SET r = $run, r.status = 'running', r.heartbeat_at = $run.started_at
RETURN r.id AS id
