// The last heartbeat of a scheduler for this configuration.
// $id: configuration id
MATCH (h:SchedulerHeartbeat {id: $id})
RETURN {__properties__: {{property_pairs(h, [])}}} AS heartbeat
