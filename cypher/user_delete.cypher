// GDPR deletion: hard-delete every node of a user (audit events aside, redacted separately by
// user_audit_redact) with its relationships, streamed from each label's user_id index (the labels of
// user_nodes.cypher; a test keeps the two lists equal), $batch nodes per transaction (auto-commit).
// Per label: the nodes deleted and the relationships they took along (each counted once: the degree of a
// node when it is deleted). Idempotent: a rerun finishes an interrupted deletion.
// $user_id, $session_prefix (user_nodes.cypher), $batch: rows per transaction
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
CALL (n) {
  WITH n, labels(n)[0] AS label, COUNT { (n)--() } AS degree
  DETACH DELETE n
  RETURN label, degree
} IN TRANSACTIONS OF $batch ROWS
RETURN label, count(*) AS nodes, sum(degree) AS relationships
