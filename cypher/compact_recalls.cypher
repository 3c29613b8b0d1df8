// Consolidate job (compaction): recall events older than the promotion window (promotion no longer reads
// them) are folded into per-memory counters (m.recalls_compacted) and one rollup RecallEvent per user and
// day (rollup: true, events: how many, memory_ids: the distinct ids recalled), then deleted. Rollups are
// never compacted again. One user-day per transaction.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (e:RecallEvent) WHERE e.user_id = $user_id RETURN e
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (e:RecallEvent) RETURN e
}
WITH e WHERE e.at < $now - duration({days: $p.promote_window_days}) AND NOT coalesce(e.rollup, false)
WITH e.user_id AS uid, date(e.at) AS day, collect(e) AS events
CALL (uid, day, events) {
  WITH uid, day, events, reduce(ids = [], ev IN events | ids + coalesce(ev.memory_ids, [])) AS all_ids
  CREATE (r:RecallEvent {id: randomUUID()})
  SET r.user_id = uid, r.rollup = true, r.day = day, r.at = datetime({date: day}), r.events = size(events),
      r.memory_ids = reduce(acc = [], x IN all_ids | CASE WHEN x IN acc THEN acc ELSE acc + x END)
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
