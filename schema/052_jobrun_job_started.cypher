// A job's latest runs.
CREATE INDEX jobrun_job_started IF NOT EXISTS FOR (r:JobRun) ON (r.job, r.started_at)
