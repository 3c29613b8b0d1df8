// Record messages `graphmem import` (or the ADK memory service) stored: one done IdempotencyKey per message,
// its result the memories the message became (a new one, or the one a near-duplicate reinforced; an ADK event
// stored in parts: one per part). A key already recorded is kept.
// $user_id, $now, $rows: list of {id, key, memories: list of memory ids}
UNWIND $rows AS row
MERGE (k:IdempotencyKey {id: row.id})
ON CREATE SET k.user_id = $user_id, k.key = row.key, k.action = 'import', k.status = 'done',
              k.result_ids = row.memories, k.created_at = $now, k.finished_at = $now
RETURN count(k) AS recorded
