// Lock the current version of a user's fact key for a retraction (the most recently recorded one; a plan
// is the current version here, started or not); the filter after the lock sees a concurrent retraction that
// committed first. For a plan, also the version it closed at its start (resumed: a plain retraction of the
// plan continues that value from the plan's start, graphmem.model.facts.plan_retraction).
// No row: nothing to retract.
// $user_id, $key, $agent_id (null: any agent), $now
MATCH (f:Fact) WHERE f.user_id = $user_id AND f.key = $key AND f.status = 'current' AND f.expired_at IS NULL
  AND ($agent_id IS NULL OR f.agent_id = $agent_id)
WITH f ORDER BY f.recorded_at DESC LIMIT 1
SET f.locked_at = $now
WITH f WHERE f.status = 'current' AND f.expired_at IS NULL
OPTIONAL CALL (f) {
  MATCH (f)-[:SUPERSEDES]->(p:Fact)
  WHERE f.planned_at IS NOT NULL AND p.user_id = f.user_id AND p.status = 'superseded' AND p.valid_to = f.valid_from
  RETURN p {.*} AS resumed LIMIT 1
}
RETURN f {.*} AS fact, resumed
