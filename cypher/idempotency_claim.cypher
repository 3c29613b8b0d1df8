// Claim an idempotency key (MERGE on its unique id: concurrent claims serialize), or find who holds it.
// A pending claim older than $stale_before is taken over, and so is one held by $dead_token (a process of
// this machine that died holding it, graphmem.store.owners.died; null: none). The claim records its holder
// ($owner: graphmem.store.owners.owner). The caller owns the key when token = $token.
// $id, $user_id, $key, $action, $token, $now, $stale_before, $owner, $dead_token
MERGE (k:IdempotencyKey {id: $id})
ON CREATE SET k.user_id = $user_id, k.key = $key, k.action = $action, k.token = $token,
              k.status = 'pending', k.created_at = $now, k.owner = $owner
WITH k, k.status = 'pending'
        AND (k.created_at < $stale_before OR coalesce(k.token = $dead_token, false)) AS stale
SET k.token = CASE WHEN stale THEN $token ELSE k.token END,
    k.created_at = CASE WHEN stale THEN $now ELSE k.created_at END,
    k.owner = CASE WHEN stale THEN $owner ELSE k.owner END
RETURN k.token AS token, k.status AS status, k.action AS action, k.result_ids AS result_ids,
       k.owner AS owner
