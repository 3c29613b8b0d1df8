// Claim an idempotency key (MERGE on its unique id: concurrent claims serialize), or find who holds it.
// A pending claim held by $take_token is taken over: graphmem.store.idempotency._claim names it when its
// holder ($owner of the claiming call: graphmem.store.owners.owner) is a dead process of this machine, or is
// not of this machine and the claim is older than STALE_AFTER (a live holder of this machine keeps it;
// null: none). The caller owns the key when token = $token.
// $id, $user_id, $key, $action, $token, $now, $owner, $take_token
MERGE (k:IdempotencyKey {id: $id})
ON CREATE SET k.user_id = $user_id, k.key = $key, k.action = $action, k.token = $token,
              k.status = 'pending', k.created_at = $now, k.owner = $owner
WITH k, k.status = 'pending' AND coalesce(k.token = $take_token, false) AS taken
SET k.token = CASE WHEN taken THEN $token ELSE k.token END,
    k.created_at = CASE WHEN taken THEN $now ELSE k.created_at END,
    k.owner = CASE WHEN taken THEN $owner ELSE k.owner END
RETURN k.token AS token, k.status AS status, k.action AS action, k.result_ids AS result_ids,
       k.owner AS owner, k.created_at AS created_at
