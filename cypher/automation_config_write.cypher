// Write a new version of the automation configuration and keep the version in its history. $marks: the
// marking statements the change calls for (graphmem.automation.control.due_marks), kept on the node as
// pending until they have run (Automation.apply_due_marks), so a marking interrupted after this commit is
// completed by the next job run.
// $id: configuration id; $version: the new version; $body: JSON text; $now: datetime; $by: who wrote it;
// $marks: list of statement names
MATCH (c:AutomationConfig {id: $id})
SET c.version = $version, c.body = $body, c.updated_at = $now, c.updated_by = $by,
    c.pending_marks = [x IN (CASE WHEN c.pending_marks IS :: LIST<STRING NOT NULL> NOT NULL THEN c.pending_marks ELSE [] END) WHERE NOT x IN $marks] + $marks
CREATE (h:AutomationConfigVersion {config_id: $id, version: $version})
SET h.body = $body, h.recorded_at = $now, h.recorded_by = $by
RETURN c.version AS version
