// Value panel: job runs by job and outcome since a time, for one tenant's runs or all runs.
// $user_id: tenant or null for all, $since: datetime
MATCH (j:JobRun) WHERE j.started_at >= $since AND ($user_id IS NULL OR j.user_id = $user_id)
RETURN j.job AS job, j.status AS status, count(*) AS n, max(j.started_at) AS last
ORDER BY job, status
