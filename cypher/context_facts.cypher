// The readable tenants' current facts (the first section of an assembled context): per key, the version valid at
// $as_of as recorded by $known_at (fragments/fact_valid_to.cypher, as fact_at.cypher reads one key; the
// current values: both now, so a plan not started yet leaves the value it will replace). Superseded, ended,
// retracted and conflicted versions never appear once they stopped holding.
// Each row names its tenant: graphmem.retrieval.context.scoped_facts keeps a key's narrowest scope.
// $tenants: the tenant keys the caller may read (graphmem.model.scopes); $as_of, $known_at: datetimes
MATCH (f:Fact) WHERE f.user_id IN $tenants AND f.status <> 'conflicted'
  AND f.recorded_at <= $known_at AND f.valid_from <= $as_of
  AND coalesce($as_of < {{fact_valid_to(f, $known_at)}}, true)
WITH f ORDER BY f.recorded_at DESC, f.valid_from DESC
WITH f.user_id AS tenant, f.key AS key, coalesce(f.agent_id, '') AS agent, collect(f)[0] AS f
RETURN tenant, f.key AS key, f.value AS value, f.fact_type AS fact_type, f.recorded_at AS recorded_at
ORDER BY f.recorded_at DESC, f.key
