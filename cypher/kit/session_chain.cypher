// A session's FOLLOWS chain, first memory to last, with the session node.
// :param user_id => 'alice'
// :param session_id => 's1'
MATCH (s:Session)<-[:IN_SESSION]-(m:Memory)
WHERE s.user_id = $user_id AND s.session_id = $session_id
OPTIONAL MATCH (m)-[f:FOLLOWS]->(next:Memory)
WHERE next.user_id = $user_id AND next.session_id = $session_id
RETURN s, m, f, next
ORDER BY m.created_at
