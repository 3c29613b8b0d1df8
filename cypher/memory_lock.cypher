// Lock one memory of a tenant for an optimistic update and return its version and the fields an update
// may change; the caller compares them inside the same transaction (a change to nothing is a no-op).
// $user_id, $id, $now
MATCH (m:Memory {id: $id}) WHERE m.user_id = $user_id
SET m.locked_at = $now
RETURN {{typed_count(m.version, 1)}} AS version, m.content AS content, m.metadata AS metadata, m.priority AS priority
