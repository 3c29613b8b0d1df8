// Topics job: remember what a tenant's topics were built from (its signature read by topic_pending before
// the rebuild), in the rebuild's transaction; the job skips the tenant while the signature stays the same.
// $user_id: tenant; $signature: text; $now: datetime
MERGE (u:User {id: $user_id})
  ON CREATE SET u.user_id = $user_id, u.created_at = $now
SET u.topics_signature = $signature, u.topics_built_at = $now
RETURN u.id AS id
