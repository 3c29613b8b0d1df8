// Contradictions kept rather than resolved: CONFLICTS_WITH between fact versions or memories, newest first.
// :param user_id => 'alice'
// Rows are readable maps: node properties with the label (embeddings left out), edge properties with the type.
MATCH (a)-[c:CONFLICTS_WITH]->(b)
WHERE a.user_id = $user_id AND b.user_id = $user_id
RETURN a {.*, label: labels(a)[0], embedding: null, context_embedding: null} AS a, c {.*, type: type(c)} AS c, b {.*, label: labels(b)[0], embedding: null, context_embedding: null} AS b
ORDER BY c.recorded_at DESC
