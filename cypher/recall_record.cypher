// Record a recall (query, returned ids, levels) so retrieval quality can be measured later.
// $event: {id, user_id, query, memory_ids, levels, scores, intent, as_of, known_at, k}; $now: datetime
CREATE (r:RecallEvent)
SET r = $event, r.at = $now
RETURN r.id AS id
