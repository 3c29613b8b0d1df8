// Unique job-run ids.
CREATE CONSTRAINT jobrun_id_unique IF NOT EXISTS FOR (r:JobRun) REQUIRE r.id IS UNIQUE
