// Every version of a user's fact key (or the $limit latest in valid time, then recorded: the current value is
// among them whatever order history arrived in), kept contradictions included, oldest recorded first.
// $user_id, $key, $agent_id (null: any agent), $limit (null: all)
MATCH (f:Fact)
WHERE f.user_id = $user_id AND f.key = $key AND ($agent_id IS NULL OR f.agent_id = $agent_id)
WITH f ORDER BY f.valid_from DESC, f.recorded_at DESC, f.version DESC
LIMIT coalesce($limit, 9223372036854775807)
RETURN {__properties__: {{property_pairs(f, ['embedding'])}}} AS fact
ORDER BY f.recorded_at, f.version, f.valid_from
