// How many memories a tenant has (the recall planner's input), and how many exist in all.
// $user_id
MATCH (m:Memory) WHERE m.user_id = $user_id
WITH count(m) AS user_count
CALL () { MATCH (n:Memory) RETURN count(n) AS total }
RETURN user_count, total
