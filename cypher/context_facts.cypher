// The readable tenants' current facts (the first section of an assembled context): per key, the version valid at
// $as_of as recorded by $known_at (fragments/fact_valid_to.cypher, as fact_at.cypher reads one key; the
// current values: both now, so a plan not started yet leaves the value it will replace), and the key's next
// plan as known then (next_value from next_from: a version stated before it starts, valid somewhere, starting
// after $as_of, of another value than the one holding then (a withdrawn plan's resumed value is none); the
// earliest), also for a key that holds no value yet. Superseded, ended, retracted and
// conflicted versions never appear once they stopped holding.
// Each row names its tenant: graphmem.retrieval.context.scoped_facts keeps a key's narrowest scope.
// $tenants: the tenant keys the caller may read (graphmem.model.scopes); $as_of, $known_at: datetimes
MATCH (f:Fact) WHERE f.user_id IN $tenants AND f.status <> 'conflicted' AND f.recorded_at <= $known_at
  AND coalesce($as_of < {{fact_valid_to(f, $known_at)}}, true)
  AND (f.valid_from <= $as_of
       OR (f.planned_at IS NOT NULL AND coalesce({{fact_valid_to(f, $known_at)}} > f.valid_from, true)))
WITH f ORDER BY f.recorded_at DESC, f.valid_from DESC
WITH f.user_id AS tenant, f.key AS key, coalesce(f.agent_id, '') AS agent, collect(f) AS versions
WITH tenant, key, versions, [v IN versions WHERE v.valid_from <= $as_of][0] AS f
WITH tenant, key, f,
     reduce(n = null, p IN [v IN versions WHERE v.valid_from > $as_of AND (f IS NULL OR v.value <> f.value)] |
       CASE WHEN n IS NULL OR p.valid_from < n.valid_from THEN p ELSE n END) AS next
WITH tenant, key, f, next, coalesce(f, next) AS any
RETURN tenant, key, f.value AS value, any.fact_type AS fact_type, any.recorded_at AS recorded_at,
       next.value AS next_value, next.valid_from AS next_from
ORDER BY any.recorded_at DESC, key
