// Which messages `graphmem import` already stored for a user: its per-message keys (graphmem.store.imports)
// that are done. A re-import skips those messages.
// $ids: list of IdempotencyKey ids (user_id, U+001F, key)
UNWIND $ids AS id
MATCH (k:IdempotencyKey {id: id})
WHERE k.status = 'done'
RETURN k.id AS id
