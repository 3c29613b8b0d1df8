// Lock one memory of a tenant for an optimistic update and return its version; the caller compares it
// with the expected one inside the same transaction.
// $user_id, $id, $now
MATCH (m:Memory {id: $id}) WHERE m.user_id = $user_id
SET m.locked_at = $now
RETURN m.version AS version
