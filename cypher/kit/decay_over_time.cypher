// Decay over time: average retention and strength of a user's memories by age in weeks, and how many
// were forgotten, per priority tier.
// :param user_id => 'alice'
// :param now => null   (the clock retention is derived at; null: the server's, e.g. a job's virtual clock)
MATCH (m:Memory)
WHERE m.user_id = $user_id
WITH m, duration.inDays(m.created_at, coalesce($now, datetime())).days / 7 AS week
RETURN week, m.priority AS priority, count(*) AS memories, avg({{retention_now(m, coalesce($now, datetime()))}}) AS avg_retention,
       avg({{strength_now(m, coalesce($now, datetime()))}}) AS avg_strength, count(CASE WHEN m.status = 'forgotten' THEN 1 END) AS forgotten
ORDER BY week, priority
