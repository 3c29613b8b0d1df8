// Promote job: memories recalled in more than $p.promote_session_share of a user's sessions over the window,
// in at least $p.promote_min_sessions sessions and from $p.promote_min_contexts distinct contexts, become
// common knowledge (no decay, layer long_term). Usage comes from RecallEvent nodes, raw events and daily
// rollups alike (session: session_id, else the day of the event; context: context, else the query intent;
// a rollup stores these uses as entries). Specification: graphmem.model.recall_usage (usage, promotes).
// Stored values of the wrong type (an event written by hand) read as missing, as in compact_recalls.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (e:RecallEvent) WHERE e.user_id = $user_id RETURN e
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (e:RecallEvent) RETURN e
}
WITH e WHERE e.at >= $now - duration({days: $p.promote_window_days}) AND e.at <= $now
UNWIND CASE WHEN e.rollup = true THEN CASE WHEN e.entries IS :: LIST<STRING NOT NULL> THEN e.entries ELSE [] END
            ELSE [mid IN CASE WHEN e.memory_ids IS :: LIST<STRING NOT NULL> THEN e.memory_ids ELSE [] END |
                  coalesce(toStringOrNull(e.session_id), toString(date(e.at))) + '\u001f'
                  + coalesce(toStringOrNull(e.context), toStringOrNull(e.intent), 'default') + '\u001f' + mid] END AS used
WITH DISTINCT e.user_id AS uid, used
WITH uid, split(used, '\u001f') AS part
WITH uid, collect({session: part[0], context: part[1], id: part[2]}) AS uses,
     count(DISTINCT part[0]) AS sessions
CALL (uid, uses, sessions) {
  UNWIND uses AS u
  WITH u.id AS mid, count(DISTINCT u.session) AS used, count(DISTINCT u.context) AS contexts
  WHERE used >= $p.promote_min_sessions AND contexts >= $p.promote_min_contexts
    AND toFloat(used) / sessions > $p.promote_session_share
  MATCH (m:Memory {id: mid})
  WHERE m.user_id = uid AND m.status IN ['active', 'weak', 'dormant'] AND coalesce(m.priority, 'P2') <> 'common'
  SET m.priority_before_promotion = m.priority, m.priority = 'common', m.layer = 'long_term',
      m.promoted_at = $now, m.promotion_sessions = used, m.promotion_contexts = contexts,
      m.strength = [s IN [{{strength_now(m, $now)}}] | CASE WHEN s < $p.strength_floor.common
                                             THEN $p.strength_floor.common ELSE s END][0],
      m.strength_updated_at = $now, m.decay_due = datetime({epochSeconds: 0})
  RETURN count(m) AS promoted
} IN TRANSACTIONS OF 1 ROWS
RETURN coalesce(sum(promoted), 0) AS promoted
