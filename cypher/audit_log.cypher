// Audit events, oldest first, filtered by user (by hash, so a deleted user's tombstone matches), target id
// and time.
// $user_hash (null: any), $target_id (null: any), $since (null: any)
MATCH (a:AuditEvent)
WHERE ($user_hash IS NULL OR a.user_hash = $user_hash)
  AND ($target_id IS NULL OR $target_id IN a.target_ids)
  AND ($since IS NULL OR a.at >= $since)
RETURN a {.*} AS event
ORDER BY a.at, a.id
