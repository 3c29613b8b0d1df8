// The tenants with at least $min live memories with an embedding (associate loops over tenants, not nodes).
// $user_id: one tenant, or null for all; $min: smallest count
MATCH (m:Memory)
WHERE ($user_id IS NULL OR m.user_id = $user_id) AND m.status IN ['active', 'weak', 'dormant']
  AND m.embedding IS NOT NULL
WITH m.user_id AS user_id, count(*) AS live
WHERE live >= $min
RETURN user_id, live
