// Is the tenant small? Counts its memories up to $cap only, so the cost is bounded by $cap, not the tenant.
// $user_id, $cap
MATCH (m:Memory) WHERE m.user_id = $user_id
WITH m LIMIT $cap
RETURN count(m) AS n
