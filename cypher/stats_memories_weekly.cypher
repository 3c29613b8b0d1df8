// Value panel: memories created per week, by status and priority, for one tenant or all.
// $user_id: tenant or null for all, $since: datetime
MATCH (m:Memory) WHERE ($user_id IS NULL OR m.user_id = $user_id) AND m.created_at >= $since
RETURN toString(date(datetime.truncate('week', m.created_at))) AS week, coalesce(m.status, 'active') AS status,
       coalesce(m.priority, 'common') AS priority, count(*) AS n
ORDER BY week
