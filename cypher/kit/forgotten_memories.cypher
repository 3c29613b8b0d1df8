// Forgotten memories (soft-deleted, restorable until the hard-delete grace period ends), newest first.
// :param user_id => 'alice'
// :param now => null   (the clock retention is derived at; null: the server's, e.g. a job's virtual clock)
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status = 'forgotten'
RETURN m.id AS id, m.content AS content, m.forgotten_at AS forgotten_at, m.forgotten_reason AS reason,
       m.status_before_forgetting AS was, {{retention_now(m, coalesce($now, datetime()))}} AS retention
ORDER BY m.forgotten_at DESC
