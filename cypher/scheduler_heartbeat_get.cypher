// The last heartbeat of a scheduler for this configuration.
// $id: configuration id
MATCH (h:SchedulerHeartbeat {id: $id})
RETURN h {.*} AS heartbeat
