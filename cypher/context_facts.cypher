// The readable tenants' current facts (the first section of an assembled context): per key, the version valid at
// $as_of as recorded by $known_at (fragments/fact_valid_to.cypher, as fact_at.cypher reads one key);
// with both null, the current versions. Superseded, ended, retracted and conflicted versions never appear.
// Each row names its tenant: graphmem.retrieval.context.scoped_facts keeps a key's narrowest scope.
// $tenants: the tenant keys the caller may read (graphmem.model.scopes); $as_of, $known_at: datetimes or null
MATCH (f:Fact) WHERE f.user_id IN $tenants AND f.status <> 'conflicted'
  AND CASE WHEN $as_of IS NULL AND $known_at IS NULL THEN f.status = 'current' AND f.expired_at IS NULL
           ELSE f.recorded_at <= coalesce($known_at, datetime()) AND f.valid_from <= coalesce($as_of, datetime())
             AND coalesce(coalesce($as_of, datetime()) < {{fact_valid_to(f, coalesce($known_at, datetime()))}}, true)
      END
WITH f ORDER BY f.recorded_at DESC
WITH f.user_id AS tenant, f.key AS key, coalesce(f.agent_id, '') AS agent, collect(f)[0] AS f
RETURN tenant, f.key AS key, f.value AS value, f.fact_type AS fact_type, f.recorded_at AS recorded_at
ORDER BY f.recorded_at DESC, f.key
