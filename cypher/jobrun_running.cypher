// Runs of a job still marked running (to detect runs whose process died).
// $job
MATCH (r:JobRun {job: $job, status: 'running'})
RETURN {__properties__: {{property_pairs(r, [])}}} AS run
