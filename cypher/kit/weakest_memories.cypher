// The weakest memories still held: lowest retention first, with what protects or dooms them.
// :param user_id => 'alice'
// :param limit => 25
// :param now => null   (the clock retention is derived at; null: the server's, e.g. a job's virtual clock)
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status <> 'forgotten'
RETURN m.id AS id, m.content AS content, m.status AS status, m.priority AS priority,
       {{retention_now(m, coalesce($now, datetime()))}} AS retention, {{strength_now(m, coalesce($now, datetime()))}} AS strength, m.access_count AS access_count,
       m.last_accessed_at AS last_accessed_at
ORDER BY retention ASC, strength ASC
LIMIT toInteger($limit)
