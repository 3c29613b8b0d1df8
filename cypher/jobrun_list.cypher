// The latest job runs, newest first, optionally of one job and/or one tenant.
// $job: name or null; $user_id: tenant or null; $limit
MATCH (r:JobRun)
WHERE ($job IS NULL OR r.job = $job) AND ($user_id IS NULL OR r.user_id = $user_id)
RETURN {__properties__: {{property_pairs(r, [])}}} AS run
ORDER BY r.started_at DESC
LIMIT $limit
