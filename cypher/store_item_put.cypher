// LangGraph store: write an item (namespace, key) of a user as a Memory labelled StoreItem, in place
// (a new item is created; an existing live one gets the new value). No near-duplicate merging: items are
// addressed by key. $user_id, $namespace: list of strings, $key, $id: id for a new item, $content: text to
// search, $value: JSON text, $embedding: list of floats, or null for an item put with index=False (not
// searched by a query: store_indexed false, no vector), $indexed: boolean, $props: map of scalar properties,
// $now: datetime
// Writing to the User node first serializes concurrent puts of one user (no key gets two items).
MERGE (u:User {id: $user_id})
  ON CREATE SET u.user_id = $user_id, u.created_at = $now
SET u.store_edited_at = $now
WITH u
OPTIONAL MATCH (old:StoreItem)
WHERE old.user_id = $user_id AND old.store_ns = $namespace AND old.store_key = $key AND old.status <> 'forgotten'
WITH old LIMIT 1
CALL (old) {
  WITH old WHERE old IS NULL
  CREATE (m:Memory:StoreItem {id: $id})
  SET m += $props, m.user_id = $user_id, m.store_ns = $namespace, m.store_key = $key,
      m.created_at = $now, m.recorded_at = $now, m.occurred_at = $now, m.version = 1
  RETURN m
UNION
  WITH old WHERE old IS NOT NULL
  SET old.version = {{typed_count(old.version, 1)}} + 1
  RETURN old AS m
}
SET m.content = $content, m.store_value = $value, m.updated_at = $now, m.store_indexed = $indexed,
    m.embedding = CASE WHEN $embedding IS NULL THEN null ELSE m.embedding END // no stale vector
WITH m
CALL (m) {
  WITH m WHERE $embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(m, 'embedding', $embedding)
}
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS item
