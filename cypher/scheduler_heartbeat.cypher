// A running scheduler (worker or in-process) says it is alive and which jobs it has scheduled.
// $id: configuration id; $now: datetime; $host; $pid; $jobs: list of "name=schedule"; $config_version
MERGE (h:SchedulerHeartbeat {id: $id})
SET h.seen_at = $now, h.host = $host, h.pid = $pid, h.jobs = $jobs, h.config_version = $config_version
RETURN h.seen_at AS seen_at
