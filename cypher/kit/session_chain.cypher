// A session's FOLLOWS chain, first memory to last, with the session node.
// :param user_id => 'alice'
// :param session_id => 's1'
// Rows are readable maps: node properties with the label (embeddings left out), edge properties with the type.
MATCH (s:Session)<-[:IN_SESSION]-(m:Memory)
WHERE s.user_id = $user_id AND s.session_id = $session_id
OPTIONAL MATCH (m)-[f:FOLLOWS]->(next:Memory)
WHERE next.user_id = $user_id AND next.session_id = $session_id
RETURN s {.*, label: 'Session'} AS s, m {.*, label: labels(m)[0], embedding: null, context_embedding: null} AS m, CASE WHEN f IS NULL THEN null ELSE f {.*, type: type(f)} END AS f,
       CASE WHEN next IS NULL THEN null ELSE next {.*, label: labels(next)[0], embedding: null, context_embedding: null} END AS next
ORDER BY m.created_at
