// Recall reinforces what it returns: one more access, the access time, and the new strength.
// $updates: list of {id, strength}; $user_id; $now: datetime
UNWIND $updates AS u
MATCH (m:Memory {id: u.id}) WHERE m.user_id = $user_id
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $now, m.strength = u.strength
RETURN count(m) AS reinforced
