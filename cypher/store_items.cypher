// LangGraph store: a user's live items under a namespace prefix (all when $keys is null, else those keys in
// exactly $prefix), most recently updated first. $user_id, $prefix: list of strings, $keys: list or null
MATCH (m:StoreItem)
WHERE m.user_id = $user_id AND m.status <> 'forgotten' AND m.store_ns[0..size($prefix)] = $prefix
  AND ($keys IS NULL OR (m.store_ns = $prefix AND m.store_key IN $keys))
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS item
ORDER BY m.updated_at DESC
