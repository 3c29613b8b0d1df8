// Every version of a user's fact key, kept contradictions included, oldest recorded first.
// $user_id, $key, $agent_id (null: any agent)
MATCH (f:Fact)
WHERE f.user_id = $user_id AND f.key = $key AND ($agent_id IS NULL OR f.agent_id = $agent_id)
RETURN {__properties__: {{property_pairs(f, ['embedding'])}}} AS fact
ORDER BY f.recorded_at, f.version, f.valid_from
