// An unrevoked API key by id, with its salt and hash for the caller to compare.
// $id
MATCH (k:ApiKey {id: $id}) WHERE k.revoked_at IS NULL
RETURN k {.id, .salt, .hash, .scope, .subject, .agent_id, .org_id} AS key
