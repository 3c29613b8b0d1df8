// LangGraph store: the distinct namespaces of a user's live items. $user_id
MATCH (m:StoreItem) WHERE m.user_id = $user_id AND m.status <> 'forgotten'
RETURN DISTINCT m.store_ns AS namespace
ORDER BY namespace
