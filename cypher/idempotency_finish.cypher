// Record the result of the write an idempotency key guarded (the ids it produced).
// $id, $token, $ids: list of strings, $now
MATCH (k:IdempotencyKey {id: $id}) WHERE k.token = $token
SET k.status = 'done', k.result_ids = $ids, k.finished_at = $now
RETURN count(k) AS finished
