// Every node of a user (audit events aside), embeddings left out, for an export or a deletion report.
// $user_id
MATCH (n) WHERE n.user_id = $user_id AND NOT n:AuditEvent
RETURN coalesce(n.id, n.uid, elementId(n)) AS key, labels(n) AS labels, n {.*, embedding: null} AS props
ORDER BY labels[0], key
