// Whether anything at all is stored for a user (delete-user, anonymize-user and a job run for one user
// refuse a user of whom nothing is): a node of the labels of user_nodes.cypher (each an index seek that stops
// at the first hit; a test keeps the lists equal), a session scope of the user (scope_session_tenants.cypher),
// a deletion interrupted midway (its pending UserDeletion), an API key of the user's (deletion revokes it and
// drops the id), or an audit event that still names the user.
// $user_id, $session_prefix (user_nodes.cypher), $scope_prefix (scope_session_tenants.cypher), $user_hash
RETURN EXISTS { MATCH (n:Memory) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:MemoryVersion) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Fact) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Entity) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Session) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Conflict) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Merge) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:RecallEvent) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Feedback) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:JobRun) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:User) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:IdempotencyKey) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:UserTuning) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Topic) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:Reconstruction) WHERE n.user_id = $user_id }
    OR EXISTS { MATCH (n:User {id: $user_id}) }
    OR EXISTS { MATCH (n:Session) WHERE n.uid STARTS WITH $session_prefix }
    OR EXISTS { MATCH (n:Memory) WHERE n.user_id STARTS WITH $scope_prefix }
    OR EXISTS { MATCH (n:Fact) WHERE n.user_id STARTS WITH $scope_prefix }
    OR EXISTS { MATCH (n:User) WHERE n.user_id STARTS WITH $scope_prefix }
    OR EXISTS { MATCH (n:RecallEvent) WHERE n.user_id STARTS WITH $scope_prefix }
    OR EXISTS { MATCH (n:Reconstruction) WHERE n.user_id STARTS WITH $scope_prefix }
    OR EXISTS { MATCH (d:UserDeletion {user_hash: $user_hash}) }
    OR EXISTS { MATCH (k:ApiKey) WHERE k.scope = 'user' AND k.subject = $user_id } // deletion revokes it
    OR EXISTS { MATCH (a:AuditEvent) WHERE a.user_hash = $user_hash AND a.user_id IS NOT NULL } AS stored
