// A near-duplicate reinforces the existing memory instead of a new node: one more access, and the strength
// grown as graphmem.model.heuristics.reinforce with way 'restore' (testing effect: stating a memory again
// strengthens restore_share as much as recalling it; spacing as in recall_write), capped at 4. The merge
// is recorded as a Merge node (what was said, when, how similar) pointing at the memory.
// $merges: list of {i, id, merge_id, content, similarity, occurred_at, metadata}
// $user_id, $now; $r: Reinforcement map {gain, spacing_days, restore_share}
UNWIND $merges AS d
MATCH (m:Memory {id: d.id}) WHERE m.user_id = $user_id
SET m.merge_count = {{typed_count(m.merge_count, 0)}} + 1 // the lock first: the values read below are the latest
WITH d, m, {{typed_count(m.access_count, 0)}} AS n,
     {{strength_now(m, $now)}} AS s, // derived now: graphmem.model.anchors
     duration.inSeconds(coalesce({{typed_time(m.last_accessed_at, null)}}, {{typed_time(m.recorded_at, null)}}, {{typed_time(m.created_at, $now)}}), $now) AS gap
WITH d, m, n, s + $r.gain * log(2 + n) / (1 + n) * $r.restore_share
       * (0.5 + 0.5 * (1.0 - exp(-(CASE WHEN gap.seconds < 0 THEN 0.0
                                  ELSE (gap.seconds + gap.nanosecondsOfSecond / 1000000000.0) / 86400.0 END)
                                / $r.spacing_days))) AS s1
SET m.access_count = n + 1, m.last_accessed_at = $now, m.strength = CASE WHEN s1 > 4.0 THEN 4.0 ELSE s1 END,
    m.decay_due = datetime({epochSeconds: 0}) // a decay input moved: the next decay run evaluates it
CREATE (r:Merge {id: d.merge_id, user_id: $user_id, content: d.content, similarity: d.similarity,
                 occurred_at: d.occurred_at, metadata: d.metadata, recorded_at: $now})-[:MERGED_INTO {
                 weight: d.similarity, valid_from: d.occurred_at, valid_to: null, recorded_at: $now,
                 expired_at: null}]->(m)
RETURN d.i AS i, {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS memory
