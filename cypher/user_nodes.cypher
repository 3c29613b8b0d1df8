// Every node of a user (audit events aside), found through the user_id index of each label that holds one
// (schema 020, 070-080): element id, labels and, with $props, the properties (embeddings left out).
// The list of a user's labels (export_user and anonymize_user start here; user_delete.cypher streams the
// same list, a test keeps them equal).
// $user_id, $props: boolean, $session_prefix: the user's Session uids begin with it (drafts.session_uid)
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
RETURN elementId(n) AS element_id, coalesce(n.id, n.uid, elementId(n)) AS key, labels(n) AS labels,
       CASE WHEN $props THEN {__properties__: {{property_pairs(n, ['embedding', 'context_embedding'])}}} ELSE null END AS props
ORDER BY labels[0], key
