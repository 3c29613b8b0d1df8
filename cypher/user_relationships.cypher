// Every relationship touching a user's nodes (audit events aside), with its properties.
// $user_id
MATCH (a)-[r]->(b)
WHERE (a.user_id = $user_id OR b.user_id = $user_id) AND NOT a:AuditEvent AND NOT b:AuditEvent
RETURN coalesce(a.id, a.uid, elementId(a)) AS src, type(r) AS type, coalesce(b.id, b.uid, elementId(b)) AS dst,
       properties(r) AS props
ORDER BY type, src, dst
