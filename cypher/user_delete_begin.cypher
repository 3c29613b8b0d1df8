// GDPR deletion, before the batches: record what the user holds now (node counts per label, distinct
// relationships) on a pending UserDeletion keyed by the user's hash, unless an interrupted deletion already
// recorded it; return the recorded counts, so a rerun's tombstone still counts what the first run deleted.
// Same labels as user_delete.cypher.
// $user_id, $session_prefix (user_nodes.cypher), $user_hash, $now
CALL () {
  MATCH (n:Memory) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:MemoryVersion) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Fact) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Entity) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Session) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Conflict) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Merge) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:RecallEvent) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Feedback) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:JobRun) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:User) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:IdempotencyKey) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:UserTuning) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Topic) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:Reconstruction) WHERE n.user_id = $user_id RETURN n
  UNION MATCH (n:User {id: $user_id}) RETURN n // keys that hold the user id: found without a user_id too
  UNION MATCH (n:Session) WHERE n.uid STARTS WITH $session_prefix RETURN n
}
WITH collect(n) AS nodes
CALL (nodes) {
  UNWIND nodes AS n
  WITH labels(n)[0] AS label, count(*) AS c
  RETURN collect(label) AS labels, collect(c) AS counts
}
CALL (nodes) {
  UNWIND nodes AS n
  MATCH (n)-[r]-()
  RETURN count(DISTINCT r) AS relationships
}
MERGE (d:UserDeletion {user_hash: $user_hash})
  ON CREATE SET d.started_at = $now, d.labels = labels, d.counts = counts, d.relationships = relationships
RETURN d.labels AS labels, d.counts AS counts, d.relationships AS relationships
