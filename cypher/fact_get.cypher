// A user's current value of a fact key (any fact_type; the most recently recorded when several).
// $user_id, $key, $agent_id (null: any agent)
MATCH (f:Fact) WHERE f.user_id = $user_id AND f.key = $key AND f.status = 'current' AND f.expired_at IS NULL
  AND ($agent_id IS NULL OR f.agent_id = $agent_id)
RETURN f {.*} AS fact
ORDER BY f.recorded_at DESC
LIMIT 1
