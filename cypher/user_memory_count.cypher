// How many memories a tenant has (the recall planner's input), and how many exist in all.
// $tenants (the tenant keys the read may see: graphmem.model.scopes)
MATCH (m:Memory) WHERE m.user_id IN $tenants
WITH count(m) AS user_count
CALL () { MATCH (n:Memory) RETURN count(n) AS total }
RETURN user_count, total
