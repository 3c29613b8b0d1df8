// Recall explorer: a memory's graph one hop around it (view edges, entities, facts), as of a valid time.
// $user_id, $memory_id, $as_of: datetime or null (null: now), $limit
MATCH (m:Memory {id: $memory_id}) WHERE m.user_id = $user_id
MATCH (m)-[r]-(n) WHERE n.user_id = $user_id AND (n:Memory OR n:Entity OR n:Fact)
  AND ($as_of IS NULL OR coalesce(r.valid_from, r.recorded_at, $as_of) <= $as_of)
  AND ($as_of IS NULL OR r.valid_to IS NULL OR r.valid_to > $as_of)
WITH m, r, n LIMIT $limit
RETURN m.id AS center, startNode(r).id AS src, type(r) AS type, endNode(r).id AS dst,
       n.id AS id, labels(n)[0] AS label,
       coalesce(n.content, n.name, n.key + ': ' + toStringOrNull(n.value)) AS text, n.status AS status
