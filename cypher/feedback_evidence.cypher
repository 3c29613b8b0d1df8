// The feedback a user gave in a window, each with the query it judged: the query given with the feedback,
// else the latest recall before it that returned the memory. Newest first. A stored query that is not text
// (written by hand) counts as missing; usefulness is true only when stored as true.
// $user_id: tenant; $since, $now: datetimes; $limit: most feedback rows
MATCH (f:Feedback) WHERE f.user_id = $user_id AND f.at > $since AND f.at <= $now
MATCH (f)-[:ABOUT]->(m:Memory)
OPTIONAL CALL (f, m) {
  MATCH (r:RecallEvent) WHERE r.user_id = $user_id AND r.at <= f.at AND r.query IS :: STRING NOT NULL
    AND m.id IN coalesce(r.memory_ids, [])
  RETURN r.query AS recalled ORDER BY r.at DESC LIMIT 1
}
WITH f, m, coalesce(CASE WHEN f.query IS :: STRING THEN f.query END, recalled) AS query WHERE query IS NOT NULL
RETURN f.id AS id, query, m.id AS memory_id, f.useful = true AS useful, f.at AS at
ORDER BY f.at DESC
LIMIT $limit
