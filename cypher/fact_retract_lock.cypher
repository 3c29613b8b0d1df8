// Lock the current version of a user's fact key for a retraction (the most recently recorded one; a plan
// not started yet is the current version here: retracting it withdraws the plan); the filter after the lock sees a concurrent retraction that committed first.
// No row: nothing to retract.
// $user_id, $key, $agent_id (null: any agent), $now
MATCH (f:Fact) WHERE f.user_id = $user_id AND f.key = $key AND f.status = 'current' AND f.expired_at IS NULL
  AND ($agent_id IS NULL OR f.agent_id = $agent_id)
WITH f ORDER BY f.recorded_at DESC LIMIT 1
SET f.locked_at = $now
WITH f WHERE f.status = 'current' AND f.expired_at IS NULL
RETURN f {.*} AS fact
