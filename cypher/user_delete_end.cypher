// GDPR deletion, after its tombstone is recorded: drop the pending UserDeletion record.
// $user_hash
MATCH (d:UserDeletion {user_hash: $user_hash})
DELETE d
