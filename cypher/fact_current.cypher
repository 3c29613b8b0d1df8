// The current version of each (user_id, agent_id, fact_type, key), read inside the writing transaction.
// $keys: list of {user_id, agent_id, fact_type, key}
UNWIND $keys AS k
MATCH (f:Fact) WHERE f.user_id = k.user_id AND f.key = k.key AND f.fact_type = k.fact_type
  AND coalesce(f.agent_id, '') = coalesce(k.agent_id, '') AND f.status = 'current' AND f.expired_at IS NULL
RETURN k.user_id AS user_id, k.agent_id AS agent_id, k.fact_type AS fact_type, k.key AS key,
       f.id AS id, f.value AS value, f.valid_from AS valid_from, f.source AS source, f.version AS version
