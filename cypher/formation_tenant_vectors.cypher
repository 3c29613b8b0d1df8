// Formation context, a large batch into a tenant small enough to read: every live memory's vector of the tenant
// (at most $cap), for one in-process comparison with all the batch's vectors (graphmem.formation.neighbours).
// $user_id, $cap
MATCH (m:Memory) WHERE m.user_id = $user_id AND NOT coalesce(m.status, 'active') IN ['forgotten', 'superseded']
  AND m.embedding IS NOT NULL
WITH m LIMIT $cap
RETURN m.id AS id, m.embedding AS embedding, m.content AS content, m.occurred_at AS occurred_at,
       m.session_id AS session_id
