// Release a claim whose write failed, so a retry can run it again.
// $id, $token
MATCH (k:IdempotencyKey {id: $id}) WHERE k.token = $token AND k.status = 'pending'
DELETE k
RETURN count(*) AS released
