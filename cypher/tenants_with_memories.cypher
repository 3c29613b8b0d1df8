// The tenants with at least $min live memories with an embedding (associate loops over tenants, not nodes).
// $user_id: one tenant, or null for all; $min: smallest count
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant']
  AND m.embedding IS NOT NULL
WITH m.user_id AS user_id, count(*) AS live
WHERE live >= $min
RETURN user_id, live
