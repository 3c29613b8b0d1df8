// LangGraph store whose namespaces name their users (user_from_namespace): the distinct namespaces of live
// items under a namespace prefix, of every user, each with the user its items are stored for. The adapter
// keeps a namespace only when it names that user (graphmem.adapters.langgraph.GraphMemStore._visible).
// $prefix: list of strings ([]: every namespace)
MATCH (m:StoreItem) WHERE m.status <> 'forgotten' AND m.store_ns[0..size($prefix)] = $prefix
RETURN DISTINCT m.user_id AS user_id, m.store_ns AS namespace
ORDER BY namespace, user_id
