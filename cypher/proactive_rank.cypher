// Session-start preload: a tenant's memories ranked by importance 0.4, recency 0.3, frequency 0.2 and a
// 0.1 baseline (graphmem.model.scoring.proactive_score is the same formula).
// $user_id, $now: datetime, $k, $recency_days: recency half-life scale, $frequency_ref: access count of 1.0
MATCH (m:Memory) WHERE m.user_id = $user_id AND NOT m.status IN ['forgotten', 'superseded']
WITH m, duration.inSeconds(coalesce(m.last_accessed_at, m.created_at), $now).seconds / 86400.0 AS age
WITH m, 0.4 * coalesce(m.importance, 0.5)
        + 0.3 * exp(-CASE WHEN age < 0 THEN 0 ELSE age END / $recency_days)
        + 0.2 * CASE WHEN coalesce(m.access_count, 0) >= $frequency_ref THEN 1.0
                     ELSE log(1 + coalesce(m.access_count, 0)) / log(1 + $frequency_ref) END
        + 0.1 AS score
ORDER BY score DESC, m.created_at DESC
LIMIT $k
RETURN m {.*, embedding: null, context_embedding: null} AS memory, score
