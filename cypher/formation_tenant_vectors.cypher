// Formation context for small tenants: every live memory's embedding (the cosine top-k is computed in
// numpy, far faster than a per-pair Cypher scan for a batch).
// $user_id
MATCH (m:Memory) WHERE m.user_id = $user_id AND NOT coalesce(m.status, 'active') IN ['forgotten', 'superseded']
RETURN m.id AS id, m.embedding AS embedding, m.content AS content, m.occurred_at AS occurred_at,
       m.session_id AS session_id
