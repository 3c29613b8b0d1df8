// Value panel: recalls per week, how many got useful feedback on a returned memory afterwards, and their
// recorded latency (a raw event's latency_ms, a rollup's latencies) and the tokens context() used and dropped
// (summed over the events that record them; null when none does); a daily rollup of older events counts its
// events. Stored values of the wrong type (written by hand) count as missing.
// $user_id: tenant or null for all, $since: datetime
MATCH (r:RecallEvent) WHERE ($user_id IS NULL OR r.user_id = $user_id) AND r.at >= $since
WITH r, date(datetime.truncate('week', r.at)) AS week,
     EXISTS {
       MATCH (f:Feedback)-[:ABOUT]->(m:Memory)
       WHERE f.user_id = r.user_id AND f.useful = true AND f.at >= r.at
         AND m.id IN CASE WHEN r.memory_ids IS :: LIST<ANY> THEN r.memory_ids ELSE [] END
     } AS useful,
     CASE WHEN r.latency_ms IS :: INTEGER NOT NULL | FLOAT NOT NULL THEN [r.latency_ms]
          WHEN r.latencies IS :: LIST<FLOAT NOT NULL> NOT NULL THEN r.latencies ELSE [] END AS latency,
     CASE WHEN r.context_tokens_used IS :: INTEGER AND 0 <= r.context_tokens_used < 1099511627776
          THEN r.context_tokens_used END AS used, // a count (below 2^40: a larger one was written by hand)
     CASE WHEN r.context_tokens_dropped IS :: INTEGER AND 0 <= r.context_tokens_dropped < 1099511627776
          THEN r.context_tokens_dropped END AS dropped,
     CASE WHEN r.events IS :: INTEGER NOT NULL THEN r.events ELSE 1 END AS events
WITH week, sum(events) AS recalls, sum(CASE WHEN useful THEN 1 ELSE 0 END) AS useful,
     reduce(flat = [], l IN collect(latency) | flat + l) AS latencies,
     CASE WHEN count(used) > 0 THEN sum(used) END AS context_tokens_used,
     CASE WHEN count(dropped) > 0 THEN sum(dropped) END AS context_tokens_dropped
CALL (latencies) {
  UNWIND latencies AS latency
  RETURN avg(latency) AS latency_ms_mean, percentileCont(latency, 0.95) AS latency_ms_p95
}
RETURN toString(week) AS week, recalls, useful, latency_ms_mean, latency_ms_p95, context_tokens_used,
       context_tokens_dropped
ORDER BY week
