// Lock, in the order given (by id), every memory a batch of deferred recall effects will write
// (graphmem.store.deferred), so that the batch takes its memory locks in id order as formation does; a
// property set and removed again takes the node's write lock and leaves nothing behind.
// $targets: list of {id, tenants} sorted by id (tenants: the tenant keys the recalls could read)
UNWIND $targets AS t
MATCH (m:Memory {id: t.id}) WHERE m.user_id IN t.tenants
SET m.effects_lock = true
REMOVE m.effects_lock
RETURN count(m) AS locked
