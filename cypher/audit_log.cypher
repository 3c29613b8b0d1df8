// One user's audit events (by hash, so a deleted user's tombstone matches), oldest first (or newest first),
// filtered by target id and time, one page at a time: at most $limit events after the event $after (a cursor:
// the last event of the previous page, which must be this user's), ordered by time, then id. Sought by the
// user's hash (audit_user_hash): the read costs the user's own log, not every user's (audit_log_any reads those).
// $user_hash, $target_id (null: any), $since / $until (null: unbounded; inclusive), $after (an event id or
// null), $limit (integer), $newest_first (boolean: the order reversed, and the cursor's page the one before)
OPTIONAL MATCH (cursor:AuditEvent {id: $after})
WHERE cursor.user_hash = $user_hash
CALL (cursor) {
  MATCH (a:AuditEvent)
  WHERE a.user_hash = $user_hash
    AND ($target_id IS NULL OR $target_id IN a.target_ids)
    AND ($since IS NULL OR a.at >= $since)
    AND ($until IS NULL OR a.at <= $until)
    AND ($after IS NULL OR CASE WHEN $newest_first THEN a.at < cursor.at OR (a.at = cursor.at AND a.id < cursor.id)
                               ELSE a.at > cursor.at OR (a.at = cursor.at AND a.id > cursor.id) END)
  WITH a ORDER BY CASE WHEN $newest_first THEN a.at END DESC, CASE WHEN $newest_first THEN a.id END DESC, a.at, a.id
  LIMIT $limit
  RETURN collect({__properties__: {{property_pairs(a, [])}}}) AS events
}
RETURN $after IS NULL OR cursor IS NOT NULL AS cursor_found, events
