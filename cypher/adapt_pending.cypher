// Adapt job, read: per tenant with feedback, when its newest feedback (up to $now) was given, beside the
// newest one its last adaptation by the job took in (User.adapted_through, adapt_mark); pending when newer.
// $user_id: one tenant, or null for all; $now: datetime
CALL () { // one tenant through the user_id index; every tenant by a label scan only when $user_id is null
  MATCH (f:Feedback) WHERE f.user_id = $user_id RETURN f
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (f:Feedback) RETURN f
}
WITH f WHERE f.at <= $now
WITH f.user_id AS user_id, max(f.at) AS latest
OPTIONAL MATCH (u:User {id: user_id})
RETURN user_id, latest, coalesce(latest > u.adapted_through, true) AS pending
ORDER BY user_id
