// What one recall writes, in one statement (graphmem.retrieval.effects; before round 47 four statements): the
// returned memories reinforced, the RELATED_TO edges between them strengthened (synergy), the competitors the
// cue activated but recall did not return inhibited (retrieval-induced forgetting), and the recall's record,
// in this order. Each part is a subquery over its own list that returns one aggregate row whatever the list
// holds (a part that could return no row would skip every part after it); an empty list writes nothing.
// $tenants: the tenant keys the read may see (graphmem.model.scopes); $now: datetime
// $plan: the lists, in one map (graphmem.store.values.list_map says why):
//   reinforced: the returned ids; co_recalled: the same ids when two or more were returned, else []
//   suppressed: [{id, activation}]; events: [] or [{id, user_id, query, memory_ids, levels, scores, intent,
//   as_of, known_at, k, ...}]
// $reinforcement: Reinforcement map {gain, spacing_days, restore_share}; $share: the testing share of recall (1);
// $rate: the synergy rate; $rif: {rate, max_inhibition, recovery_days}
CALL () {
  // Recall reinforces what it returns (graphmem.model.heuristics.reinforce, way 'recall'): one more access and
  // recall hit, the access time, and the strength grown by gain · ln(2 + n) / (1 + n) · spacing(gap) · share
  // (spacing = 0.5 + 0.5 (1 - e^(-gap / spacing_days)), gap = days since the last access or recording), capped
  // at 4; a memory recall returns is free of retrieval-induced inhibition again.
  UNWIND $plan.reinforced AS id
  MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
  // a write first takes the memory's lock, so the values read below are the latest committed: concurrent
  // recalls returning it take turns (read in a WITH before any write, their increments were lost)
  SET m.recall_hits = {{typed_count(m.recall_hits, 0)}} + 1
  WITH m, {{typed_count(m.access_count, 0)}} AS n,
       {{strength_now(m, $now)}} AS s, // derived now: graphmem.model.anchors
       duration.inSeconds(coalesce({{typed_time(m.last_accessed_at, null)}}, {{typed_time(m.recorded_at, null)}}, {{typed_time(m.created_at, $now)}}), $now) AS d
  WITH m, n, s, (d.seconds + d.nanosecondsOfSecond / 1000000000.0) / 86400.0 AS gap
  WITH m, n, s + $reinforcement.gain * log(2 + n) / (1 + n)
         * (0.5 + 0.5 * (1.0 - exp(-(CASE WHEN gap < 0.0 THEN 0.0 ELSE gap END) / $reinforcement.spacing_days))) * $share AS s1
  SET m.access_count = n + 1, m.last_accessed_at = $now, m.strength = CASE WHEN s1 > 4.0 THEN 4.0 ELSE s1 END,
      m.inhibition = null, m.inhibited_at = null,
      m.decay_due = datetime({epochSeconds: 0}) // a decay input moved: the next decay run evaluates it
  RETURN count(m) AS reinforced
}
CALL () {
  // Synergy (graphmem.model.heuristics.co_recalled_weight): memories one recall returned together strengthen
  // the RELATED_TO edges between them, w' = w + rate (1 - w), w being the weight derived at $now
  // (fragments/edge_weight_now); the edge decays from there (new base and anchor; its rate kept; weight_due at
  // the epoch: the next decay run computes when it falls below the pruning floor). Only edges within a tenant.
  UNWIND $plan.co_recalled AS id
  MATCH (a:Memory {id: id})-[r:RELATED_TO]->(b:Memory)
  WHERE a.user_id IN $tenants AND b.user_id = a.user_id AND b.id IN $plan.co_recalled AND r.expired_at IS NULL
  WITH a, b, r, coalesce({{edge_weight_now(r, $now)}}, 0.0) AS w
  WITH a, b, r, CASE WHEN w > 1.0 THEN 1.0 WHEN w < 0.0 THEN 0.0 ELSE w END AS w
  SET r.weight = w + $rate * (1.0 - w), r.weight_base = w + $rate * (1.0 - w), r.weight_updated_at = $now,
      r.weight_due = datetime({epochSeconds: 0}),
      a.decay_due = datetime({epochSeconds: 0}), b.decay_due = datetime({epochSeconds: 0}) // an edge's base weight is a decay input
  RETURN count(r) AS strengthened
}
CALL () {
  // Retrieval-induced forgetting (graphmem.model.metamemory.inhibited): each competitor the cue activated but
  // recall did not return gains inhibition i' = min(max, max(i, 1 - (1 - i)(1 - rate · activation))) from its
  // inhibition now (the stored one halved every recovery_days since inhibited_at), and one more recall miss.
  // Strength is untouched: ranking feels the inhibition (score × (1 - inhibition now)) until it recovers.
  UNWIND $plan.suppressed AS u
  MATCH (m:Memory {id: u.id}) WHERE m.user_id IN $tenants
  SET m.recall_misses = {{typed_count(m.recall_misses, 0)}} + 1 // the lock first, as above
  // a stored inhibition or time of another type, or a time outside the years 1-9999 (written by hand), reads
  // as none (read as they were, a text failed the recall)
  WITH m, u, {{typed_number(m.inhibition, null)}} AS held, {{typed_time(m.inhibited_at, null)}} AS since
  WITH m, u, CASE WHEN held IS NULL OR since IS NULL THEN 0.0
                  ELSE held * 0.5 ^ ((duration.inSeconds(since, $now).seconds
                         + duration.inSeconds(since, $now).nanosecondsOfSecond / 1000000000.0)
                         / 86400.0 / $rif.recovery_days) END AS i0
  WITH m, u, CASE WHEN i0 > 1.0 THEN 1.0 WHEN i0 < 0.0 THEN 0.0 ELSE i0 END AS i
  WITH m, i, 1.0 - (1.0 - i) * (1.0 - $rif.rate * u.activation) AS grown
  WITH m, CASE WHEN grown < i THEN i ELSE grown END AS i1
  SET m.inhibition = CASE WHEN i1 > $rif.max_inhibition THEN $rif.max_inhibition ELSE i1 END,
      m.inhibited_at = $now
  RETURN count(m) AS suppressed
}
CALL () {
  // The recall's record (query, returned ids, levels), so retrieval quality can be measured later.
  UNWIND $plan.events AS event
  CREATE (r:RecallEvent)
  SET r = event, r.at = $now
  RETURN count(r) AS recorded
}
RETURN reinforced, strengthened, suppressed, recorded
