// Retrieval-induced forgetting: competitors that were activated but not returned lose a little strength.
// $updates: list of {id, strength}; $user_id; $now: datetime
UNWIND $updates AS u
MATCH (m:Memory {id: u.id}) WHERE m.user_id = $user_id
SET m.strength = u.strength, m.suppressed_at = $now
RETURN count(m) AS suppressed
