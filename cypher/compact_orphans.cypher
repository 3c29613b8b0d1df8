// Consolidate job (compaction): entities and sessions left without any relationship (their memories were
// deleted for good) are removed. Nodes with a relationship are never touched, so audits, fact history and
// as_of reads keep everything they reach.
// $user_id: tenant, or null for all; $batch: rows per transaction
CALL () { // one tenant through the user_id indexes; every tenant by label scans only when $user_id is null
  MATCH (n:Entity) WHERE n.user_id = $user_id RETURN n
  UNION ALL
  MATCH (n:Session) WHERE n.user_id = $user_id RETURN n
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (n) WHERE n:Entity OR n:Session RETURN n
}
WITH n WHERE NOT EXISTS { (n)--() }
CALL (n) {
  WITH n, n:Entity AS entity
  DELETE n
  RETURN entity
} IN TRANSACTIONS OF $batch ROWS
RETURN coalesce(sum(CASE WHEN entity THEN 1 ELSE 0 END), 0) AS orphan_entities,
       coalesce(sum(CASE WHEN entity THEN 0 ELSE 1 END), 0) AS empty_sessions
