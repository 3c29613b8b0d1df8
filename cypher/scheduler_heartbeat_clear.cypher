// A scheduler that stops removes its heartbeat (only its own: same host and pid).
// $id: configuration id; $host; $pid
MATCH (h:SchedulerHeartbeat {id: $id})
WHERE h.host = $host AND h.pid = $pid
DELETE h
RETURN count(*) AS cleared
