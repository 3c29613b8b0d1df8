// Recall reinforces what it returns: one more access, the access time, and the new strength.
// $updates: list of {id, strength}; $tenants (the tenant keys the read may see: graphmem.model.scopes); $now: datetime
UNWIND $updates AS u
MATCH (m:Memory {id: u.id}) WHERE m.user_id IN $tenants
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $now, m.strength = u.strength
RETURN count(m) AS reinforced
