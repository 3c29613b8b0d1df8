// GDPR deletion of a user: revoke every API key scoped to the user (a key outlived its user and went on
// writing for it, round 57's probe), and keep no personal id on it: the subject becomes the user's hash
// (graphmem.store.audit.user_hash), as in the audit's tombstone. Before the deletion's passes, so no
// write through such a key lands while the user is deleted.
// $user_id, $user_hash, $now
MATCH (k:ApiKey) WHERE k.scope = 'user' AND k.subject = $user_id
SET k.revoked_at = coalesce(k.revoked_at, $now), k.subject = null, k.subject_hash = $user_hash
RETURN count(k) AS revoked
