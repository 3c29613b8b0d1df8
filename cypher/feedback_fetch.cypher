// The memory feedback is about, write-locked until the transaction ends (Neo4j's idiom against lost updates:
// set a property, remove it in the same transaction, see feedback_record), so that concurrent feedback on one
// memory queues instead of each overwriting the other's strength and asked key. With its derived strength, its
// importance, access count and asked key, and, for feedback without a query, the query of the latest recall
// that returned it up to $now (what such feedback judges, as feedback_evidence reads it for adaptation). A
// stored importance or access count of another type (written by hand) reads as missing.
// $memory_id, $user_id: tenant; $now: datetime; $query: the feedback's query (or null)
MATCH (m:Memory {id: $memory_id}) WHERE m.user_id = $user_id
SET m._LOCK_ = true
WITH m
OPTIONAL CALL (m) {
  MATCH (r:RecallEvent) WHERE $query IS NULL AND r.user_id = $user_id AND r.at <= $now
    AND r.query IS :: STRING NOT NULL AND m.id IN coalesce(r.memory_ids, [])
  RETURN r.query AS recalled
  ORDER BY r.at DESC
  LIMIT 1
}
RETURN {{strength_now(m, $now)}} AS strength, {{typed_number(m.importance, 0.5)}} AS importance,
       {{typed_count(m.access_count, 0)}} AS access_count,
       m.asked AS asked, recalled
