// Last-resort seeds: case-insensitive substring match of any query term in one tenant's memories.
// $terms: lower-case words, $user_id, $k, $as_of: datetime or null
MATCH (m:Memory) WHERE m.user_id = $user_id
  AND ($as_of IS NULL OR (m.recorded_at <= $as_of AND (m.expired_at IS NULL OR m.expired_at > $as_of)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $as_of)
       AND (m.superseded_at IS NULL OR m.superseded_at > $as_of)))
  AND ($as_of IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
WITH m, size([t IN $terms WHERE toLower(m.content) CONTAINS t]) AS matched
WHERE matched > 0
RETURN m.id AS id, toFloat(matched) / size($terms) AS score
ORDER BY score DESC, m.created_at DESC
LIMIT $k
