// Session-start preload: a tenant's memories ranked by importance 0.4, recency 0.3, frequency 0.2 and a
// 0.1 baseline (graphmem.model.scoring.proactive_score is the same formula).
// $user_id, $now: datetime, $k, $recency_days: recency half-life scale, $frequency_ref: access count of 1.0
MATCH (m:Memory) WHERE m.user_id = $user_id AND NOT m.status IN ['forgotten', 'superseded']
WITH m, duration.inSeconds(coalesce({{typed_time(m.last_accessed_at, null)}}, {{typed_time(m.created_at, $now)}}), $now).seconds / 86400.0 AS age
WITH m, age, {{typed_count(m.access_count, 0)}} AS n
WITH m, 0.4 * {{typed_number(m.importance, 0.5)}}
        + 0.3 * exp(-CASE WHEN age < 0 THEN 0 ELSE age END / $recency_days)
        + 0.2 * CASE WHEN n >= $frequency_ref THEN 1.0 ELSE log(1 + n) / log(1 + $frequency_ref) END
        + 0.1 AS score
ORDER BY score DESC, m.created_at DESC
LIMIT $k
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS memory, score
