// Consolidate job (compaction): raw recall events older than $p.recall_rollup_days are folded into one rollup
// RecallEvent per user and day (rollup: true; entries: the distinct 'session␟context␟memory id' uses that
// promotion reads, the session being the event's session else its day, the context its context else its
// intent else 'default'; events: how many; memory_ids: the distinct ids; latencies: every event's latency_ms
// that is a number, for the value panel; context_tokens_used / _dropped: the sums of the events' counts
// (integers from 0 below 2^40: a larger one was written by hand and could overflow the sum), kept null when
// no event has one; at: the day's last event), an
// existing rollup of the day extended; the memories' recalls_compacted counters add how often each was
// returned; the raw events are deleted. Promotion reads rollups and raw events alike, so it promotes the same.
// Specification: graphmem.model.recall_usage.compact. One user-day per transaction. Stored values of the wrong
// type (an event written by hand) read as missing: ids that are not a list of text, a session or context that
// is not text (toStringOrNull), a rollup flag that is not true; on the day's rollup, counts, ids, entries and a
// time of another type start afresh.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (e:RecallEvent) WHERE e.user_id = $user_id RETURN e
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (e:RecallEvent) RETURN e
}
WITH e WHERE e.at < $now - duration({days: $p.recall_rollup_days}) AND NOT coalesce(e.rollup = true, false)
WITH e.user_id AS uid, date(e.at) AS day, collect(e) AS events
CALL (uid, day, events) {
  WITH uid, day, events,
       reduce(ids = [], ev IN events | ids + CASE WHEN ev.memory_ids IS :: LIST<STRING NOT NULL> NOT NULL THEN ev.memory_ids ELSE [] END) AS all_ids,
       reduce(acc = [], ev IN events | acc + [mid IN CASE WHEN ev.memory_ids IS :: LIST<STRING NOT NULL> NOT NULL THEN ev.memory_ids ELSE [] END |
         coalesce(toStringOrNull(ev.session_id), toString(day)) + '\u001f'
         + coalesce(toStringOrNull(ev.context), toStringOrNull(ev.intent), 'default') + '\u001f' + mid]) AS used,
       reduce(last = null, ev IN events | CASE WHEN last IS NULL OR ev.at > last THEN ev.at ELSE last END) AS last,
       [ev IN events WHERE ev.latency_ms IS :: INTEGER NOT NULL | FLOAT NOT NULL | toFloat(ev.latency_ms)] AS latencies,
       [ev IN events WHERE ev.context_tokens_used IS :: INTEGER NOT NULL
          AND 0 <= ev.context_tokens_used < 1099511627776 | ev.context_tokens_used] AS used_tokens,
       [ev IN events WHERE ev.context_tokens_dropped IS :: INTEGER NOT NULL
          AND 0 <= ev.context_tokens_dropped < 1099511627776 | ev.context_tokens_dropped] AS dropped_tokens
  MERGE (r:RecallEvent {user_id: uid, rollup: true, day: day})
  ON CREATE SET r.id = randomUUID()
  SET r.events = {{typed_count(r.events, 0)}} + size(events),
      r.at = CASE WHEN NOT r.at IS :: ZONED DATETIME NOT NULL OR last > r.at THEN last ELSE r.at END,
      r.memory_ids = reduce(acc = CASE WHEN r.memory_ids IS :: LIST<STRING NOT NULL> NOT NULL THEN r.memory_ids ELSE [] END,
                            x IN all_ids | CASE WHEN x IN acc THEN acc ELSE acc + x END),
      r.entries = reduce(acc = CASE WHEN r.entries IS :: LIST<STRING NOT NULL> NOT NULL THEN r.entries ELSE [] END,
                         x IN used | CASE WHEN x IN acc THEN acc ELSE acc + x END),
      r.latencies = CASE WHEN r.latencies IS :: LIST<FLOAT NOT NULL> NOT NULL THEN r.latencies ELSE [] END + latencies,
      r.context_tokens_used = CASE WHEN used_tokens = [] THEN r.context_tokens_used
        ELSE reduce(t = CASE WHEN r.context_tokens_used IS :: INTEGER NOT NULL AND 0 <= r.context_tokens_used < 1099511627776
                             THEN r.context_tokens_used ELSE 0 END,
                    x IN used_tokens | t + x) END,
      r.context_tokens_dropped = CASE WHEN dropped_tokens = [] THEN r.context_tokens_dropped
        ELSE reduce(t = CASE WHEN r.context_tokens_dropped IS :: INTEGER NOT NULL AND 0 <= r.context_tokens_dropped < 1099511627776
                             THEN r.context_tokens_dropped ELSE 0 END,
                    x IN dropped_tokens | t + x) END
  WITH uid, events, all_ids
  CALL (uid, all_ids) {
    UNWIND all_ids AS mid
    WITH mid, count(*) AS n
    OPTIONAL MATCH (m:Memory {id: mid}) WHERE m.user_id = uid
    FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END |
      SET m.recalls_compacted = coalesce(m.recalls_compacted, 0) + n)
  }
  FOREACH (ev IN events | DETACH DELETE ev)
  RETURN size(events) AS folded
} IN TRANSACTIONS OF 1 ROWS
RETURN count(*) AS recall_days_compacted, coalesce(sum(folded), 0) AS recall_events_compacted
