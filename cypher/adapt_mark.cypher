// Adapt job: remember the newest feedback a tenant's adaptation took in (changed or not); the job skips the
// tenant until newer feedback arrives.
// $user_id: tenant; $through: datetime (newest feedback taken in); $now: datetime
MERGE (u:User {id: $user_id})
  ON CREATE SET u.user_id = $user_id, u.created_at = $now
SET u.adapted_through = $through, u.adapted_at = $now
RETURN u.id AS id
