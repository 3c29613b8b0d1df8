// Contradictions kept rather than resolved: CONFLICTS_WITH between fact versions or memories, newest first.
// :param user_id => 'alice'
MATCH (a)-[c:CONFLICTS_WITH]->(b)
WHERE a.user_id = $user_id AND b.user_id = $user_id
RETURN a, c, b
ORDER BY c.recorded_at DESC
