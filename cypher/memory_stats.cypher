// Dashboard: memories counted by status, type and retention decile (0-9), for one user or all.
// $user_id: tenant, or null for all; $now: the clock retention is derived at (null: the server's)
// Times 10.0, not 10: a stored integer retention (set by hand, up to 2^63 - 1) must not overflow the product.
MATCH (m:Memory) WHERE $user_id IS NULL OR m.user_id = $user_id
WITH coalesce(m.status, 'active') AS status, coalesce(m.memory_type, 'episodic') AS type,
     toInteger(floor({{retention_now(m, coalesce($now, datetime()))}} * 10.0)) AS decile
RETURN status, type, CASE WHEN decile > 9 THEN 9 WHEN decile < 0 THEN 0 ELSE decile END AS bucket, count(*) AS n
