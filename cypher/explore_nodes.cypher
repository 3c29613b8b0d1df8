// Recall explorer: the nodes an explanation's activation paths name (memories, entities, facts), one tenant.
// $user_id, $ids: node ids
MATCH (n:Memory) WHERE n.id IN $ids AND n.user_id = $user_id
RETURN n.id AS id, 'Memory' AS label, n.content AS text, n.status AS status
UNION ALL
MATCH (n:Entity) WHERE n.id IN $ids AND n.user_id = $user_id
RETURN n.id AS id, 'Entity' AS label, n.name AS text, n.type AS status
UNION ALL
MATCH (n:Fact) WHERE n.id IN $ids AND n.user_id = $user_id
RETURN n.id AS id, 'Fact' AS label, n.key + ': ' + toStringOrNull(n.value) AS text, n.status AS status
