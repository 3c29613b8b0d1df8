// Value panel: recalls per week, how many got useful feedback on a returned memory afterwards, and their
// recorded latency and context budget where the recall event carries them (null otherwise); a daily rollup of
// older events counts its events.
// $user_id: tenant or null for all, $since: datetime
MATCH (r:RecallEvent) WHERE ($user_id IS NULL OR r.user_id = $user_id) AND r.at >= $since
WITH r, date(datetime.truncate('week', r.at)) AS week,
     EXISTS {
       MATCH (f:Feedback)-[:ABOUT]->(m:Memory)
       WHERE f.user_id = r.user_id AND f.useful AND f.at >= r.at AND m.id IN r.memory_ids
     } AS useful
RETURN toString(week) AS week, sum(coalesce(r.events, 1)) AS recalls, sum(CASE WHEN useful THEN 1 ELSE 0 END) AS useful,
       avg(r.latency_ms) AS latency_ms_mean, percentileCont(r.latency_ms, 0.95) AS latency_ms_p95,
       sum(r.context_tokens_used) AS context_tokens_used, sum(r.context_tokens_dropped) AS context_tokens_dropped
ORDER BY week
