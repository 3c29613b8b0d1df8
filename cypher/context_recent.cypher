// The most recent memories of a tenant (the session-history section of an assembled context), at the
// read's times (graphmem.model.timescope): happened by $as_of, recorded by $known_at, alive at $alive_at.
// $tenants (the tenant keys the read may see: graphmem.model.scopes), $k, $as_of, $known_at, $alive_at: datetimes or null (now)
MATCH (m:Memory) WHERE m.user_id IN $tenants
  AND ($as_of IS NULL OR coalesce(m.occurred_at, m.created_at, m.recorded_at) <= $as_of)
  AND ($known_at IS NULL OR m.recorded_at <= $known_at)
  AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
       AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
  AND ($alive_at IS NOT NULL OR NOT m.status IN ['forgotten', 'superseded'])
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS memory
ORDER BY coalesce(m.occurred_at, m.created_at) DESC
LIMIT $k
