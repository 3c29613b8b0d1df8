// Every user's audit events (an operator's read: events about one target id, or in a time range), oldest
// first (or newest first), one page at a time, as audit_log pages one user's: at most $limit events after the
// event $after. $target_id (null: any), $since / $until (null: unbounded; inclusive), $after (an event id or
// null), $limit (integer), $newest_first (boolean)
OPTIONAL MATCH (cursor:AuditEvent {id: $after})
CALL (cursor) {
  MATCH (a:AuditEvent)
  WHERE ($target_id IS NULL OR $target_id IN a.target_ids)
    AND ($since IS NULL OR a.at >= $since)
    AND ($until IS NULL OR a.at <= $until)
    AND ($after IS NULL OR CASE WHEN $newest_first THEN a.at < cursor.at OR (a.at = cursor.at AND a.id < cursor.id)
                               ELSE a.at > cursor.at OR (a.at = cursor.at AND a.id > cursor.id) END)
  WITH a ORDER BY CASE WHEN $newest_first THEN a.at END DESC, CASE WHEN $newest_first THEN a.id END DESC, a.at, a.id
  LIMIT $limit
  RETURN collect({__properties__: {{property_pairs(a, [])}}}) AS events
}
RETURN $after IS NULL OR cursor IS NOT NULL AS cursor_found, events
