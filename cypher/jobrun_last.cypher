// The latest run of each of the given jobs (any tenant).
// $jobs: list of job names
UNWIND $jobs AS job
CALL (job) {
  MATCH (r:JobRun {job: job})
  RETURN {__properties__: {{property_pairs(r, [])}}} AS run ORDER BY r.started_at DESC LIMIT 1
}
RETURN job, run
