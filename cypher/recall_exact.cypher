// Exact cosine scan over one tenant's memories (the planner's choice for small tenants: perfect recall).
// $user_id, $embedding, $k
// $as_of: datetime or null (transaction time: what the engine held then; not yet forgotten or merged away)
MATCH (m:Memory) WHERE m.user_id = $user_id
  AND ($as_of IS NULL OR (m.recorded_at <= $as_of AND (m.expired_at IS NULL OR m.expired_at > $as_of)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $as_of)
       AND (m.superseded_at IS NULL OR m.superseded_at > $as_of)))
  AND ($as_of IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
WITH m, vector.similarity.cosine(m.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $k
RETURN m.id AS id, score
