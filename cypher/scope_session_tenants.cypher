// The session-scope tenant keys of one user (graphmem.model.scopes: every key starts with the user's
// length-prefixed session prefix), found by prefix seeks on the user_id indexes of the labels a session scope
// writes (Memory, Fact, User, and RecallEvent and Reconstruction: a recall naming a session files them under
// the session's key even when nothing else is stored there): GDPR export and deletion cover them with the user's own tenant.
// $prefix: graphmem.model.scopes.session_prefix(user_id)
CALL () {
  MATCH (n:Memory) WHERE n.user_id STARTS WITH $prefix RETURN DISTINCT n.user_id AS tenant
  UNION MATCH (n:Fact) WHERE n.user_id STARTS WITH $prefix RETURN DISTINCT n.user_id AS tenant
  UNION MATCH (n:User) WHERE n.user_id STARTS WITH $prefix RETURN DISTINCT n.user_id AS tenant
  UNION MATCH (n:RecallEvent) WHERE n.user_id STARTS WITH $prefix RETURN DISTINCT n.user_id AS tenant
  UNION MATCH (n:Reconstruction) WHERE n.user_id STARTS WITH $prefix RETURN DISTINCT n.user_id AS tenant
}
RETURN tenant ORDER BY tenant
