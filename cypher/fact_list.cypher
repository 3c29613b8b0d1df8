// A user's facts, one version per key, key order: the current versions ($as_of and $known_at null), or each
// key's version valid at $as_of as recorded by $known_at (the rule of fact_at.cypher; Python passes both, the
// unset one as now). Kept contradictions never appear; a key written by several agents shows its most
// recently recorded version, as fact_get does.
// $user_id, $agent_id (null: any agent), $as_of, $known_at: datetimes or both null
MATCH (f:Fact)
WHERE f.user_id = $user_id AND ($agent_id IS NULL OR f.agent_id = $agent_id) AND f.status <> 'conflicted'
  AND CASE WHEN $as_of IS NULL AND $known_at IS NULL THEN f.status = 'current' AND f.expired_at IS NULL
           ELSE f.recorded_at <= $known_at AND f.valid_from <= $as_of
                AND coalesce($as_of < {{fact_valid_to(f, $known_at)}}, true) END
WITH f ORDER BY f.recorded_at DESC
WITH f.key AS key, collect(f)[0] AS f
RETURN f {.*} AS fact
ORDER BY key
