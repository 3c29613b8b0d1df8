// The vector indexes' filter properties and state: recall and formation ask the indexes for a tenant's
// neighbours directly (SEARCH … WHERE m.user_id = …) only when both list user_id and are online, and a
// time-scoped recall only when both also list occurred_at and recorded_at
// (graphmem.store.runtime.VectorFilter); init() recreates them with these on a server that can (migrations).
// $names
SHOW VECTOR INDEXES YIELD name, properties, state WHERE name IN $names
RETURN name, properties, state
