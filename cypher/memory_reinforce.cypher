// Recall reinforces what it returns (graphmem.model.heuristics.reinforce, way 'recall'): one more access and
// recall hit, the access time, and the strength grown by gain · ln(2 + n) / (1 + n) · spacing(gap) · share
// (spacing = 0.5 + 0.5 (1 - e^(-gap / spacing_days)), gap = days since the last access or recording), capped
// at 4; a memory recall returns is free of retrieval-induced inhibition again.
// $ids: memory ids; $tenants (the tenant keys the read may see: graphmem.model.scopes); $now: datetime; $r: Reinforcement map {gain, spacing_days, restore_share};
// $share: the testing share of this way (1 for recall)
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
WITH m, [gm_n IN [{{typed_number(m.access_count, 0)}}] | CASE WHEN gm_n > 0 THEN gm_n ELSE 0 END][0] AS n,
     {{strength_now(m, $now)}} AS s, // derived now: graphmem.model.anchors
     duration.inSeconds(coalesce({{typed_time(m.last_accessed_at, null)}}, {{typed_time(m.recorded_at, null)}}, {{typed_time(m.created_at, $now)}}), $now) AS d
WITH m, n, s, (d.seconds + d.nanosecondsOfSecond / 1000000000.0) / 86400.0 AS gap
WITH m, n, s + $r.gain * log(2 + n) / (1 + n)
       * (0.5 + 0.5 * (1.0 - exp(-(CASE WHEN gap < 0.0 THEN 0.0 ELSE gap END) / $r.spacing_days))) * $share AS s1
SET m.access_count = n + 1, m.last_accessed_at = $now, m.strength = CASE WHEN s1 > 4.0 THEN 4.0 ELSE s1 END,
    m.recall_hits = coalesce(m.recall_hits, 0) + 1, m.inhibition = null, m.inhibited_at = null,
    m.decay_due = datetime({epochSeconds: 0}) // a decay input moved: the next decay run evaluates it
RETURN count(m) AS reinforced
