// LangGraph store: the distinct namespaces of a user's live items under a namespace prefix.
// $user_id, $prefix: list of strings ([]: every namespace)
MATCH (m:StoreItem) WHERE m.user_id = $user_id AND m.status <> 'forgotten'
  AND m.store_ns[0..size($prefix)] = $prefix
RETURN DISTINCT m.store_ns AS namespace
ORDER BY namespace
