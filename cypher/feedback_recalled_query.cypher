// The query of the latest recall that returned a memory, up to $now: what feedback given without a query
// judges (as feedback_evidence reads it for adaptation).
// $user_id: tenant; $memory_id; $now: datetime
MATCH (r:RecallEvent) WHERE r.user_id = $user_id AND r.at <= $now AND r.query IS :: STRING NOT NULL
  AND $memory_id IN coalesce(r.memory_ids, [])
RETURN r.query AS query
ORDER BY r.at DESC
LIMIT 1
