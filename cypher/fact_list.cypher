// A user's facts, one version per key, key order: each key's version valid at $as_of as recorded by
// $known_at (the rule of fact_at.cypher; for the current values Python passes now for both). Kept
// contradictions never appear; a key written by several agents shows its most recently recorded version,
// as fact_at does.
// $user_id, $agent_id (null: any agent), $as_of, $known_at: datetimes
MATCH (f:Fact)
WHERE f.user_id = $user_id AND ($agent_id IS NULL OR f.agent_id = $agent_id) AND f.status <> 'conflicted'
  AND f.recorded_at <= $known_at AND f.valid_from <= $as_of
  AND coalesce($as_of < {{fact_valid_to(f, $known_at)}}, true)
WITH f ORDER BY f.recorded_at DESC, f.valid_from DESC
WITH f.key AS key, collect(f)[0] AS f
RETURN {__properties__: {{property_pairs(f, ['embedding'])}}} AS fact
ORDER BY key
