// A tenant's current facts (the first section of an assembled context).
// $user_id
MATCH (f:Fact) WHERE f.user_id = $user_id AND f.status = 'current' AND f.expired_at IS NULL
RETURN f.key AS key, f.value AS value, f.fact_type AS fact_type
ORDER BY f.fact_type, f.key
