// Approximate vector-index search, over-fetched and then filtered to one tenant (large tenants).
// $user_id, $embedding, $k, $fetch (how many neighbours to ask the index for)
// $as_of: datetime or null
CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node AS m, score
WITH m, score WHERE m.user_id = $user_id
  AND ($as_of IS NULL OR (m.recorded_at <= $as_of AND (m.expired_at IS NULL OR m.expired_at > $as_of)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $as_of)
       AND (m.superseded_at IS NULL OR m.superseded_at > $as_of)))
  AND ($as_of IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
RETURN m.id AS id, score
ORDER BY score DESC
LIMIT $k
