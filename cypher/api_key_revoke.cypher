// Revoke an API key (kept, marked revoked); no row when there is no such key.
// $id, $now
MATCH (k:ApiKey {id: $id})
SET k.revoked_at = coalesce(k.revoked_at, $now)
RETURN k.id AS id
