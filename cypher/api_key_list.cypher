// Every API key (never a hash), newest first.
// (no parameters)
MATCH (k:ApiKey)
RETURN k {.id, .scope, .subject, .agent_id, .org_id, .label, .created_at, .revoked_at} AS key
ORDER BY k.created_at DESC
