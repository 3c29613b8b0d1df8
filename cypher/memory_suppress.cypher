// Retrieval-induced forgetting: competitors that were activated but not returned lose a little strength.
// $updates: list of {id, strength}; $tenants (the tenant keys the read may see: graphmem.model.scopes); $now: datetime
UNWIND $updates AS u
MATCH (m:Memory {id: u.id}) WHERE m.user_id IN $tenants
SET m.strength = u.strength, m.suppressed_at = $now
RETURN count(m) AS suppressed
