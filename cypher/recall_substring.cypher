// Last-resort seeds: case-insensitive substring match of any query term in the readable tenants's memories.
// $terms: lower-case words, $tenants (the tenant keys the read may see: graphmem.model.scopes), $k
// $as_of: datetime or null (valid time: memories that had happened by then, by occurred_at)
// $known_at: datetime or null (transaction time: recorded by then)
// $alive_at: the earlier of the two, or null (not yet forgotten, expired or merged away then)
MATCH (m:Memory) WHERE m.user_id IN $tenants
  AND ($as_of IS NULL OR coalesce(m.occurred_at, m.created_at, m.recorded_at) <= $as_of)
  AND ($known_at IS NULL OR m.recorded_at <= $known_at)
  AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
       AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
  AND ($alive_at IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
WITH m, size([t IN $terms WHERE toLower(m.content) CONTAINS t]) AS matched
WHERE matched > 0
RETURN m.id AS id, toFloat(matched) / size($terms) AS score
ORDER BY score DESC, m.created_at DESC
LIMIT $k
