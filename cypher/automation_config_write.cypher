// Write a new version of the automation configuration and keep the version in its history. $basis: the
// due-date basis of the values before the change (graphmem.automation.config.DUE_MARKS), stored for each
// marking statement that has none yet, so the change's marking (Automation.apply_due_marks, run after this
// commit and by every job run) finds the stored dates computed under other values.
// $id: configuration id; $version: the new version; $body: JSON text; $now: datetime; $by: who wrote it;
// $basis: list of "statement=fingerprint" entries
MATCH (c:AutomationConfig {id: $id})
WITH c, (CASE WHEN c.due_basis IS :: LIST<STRING NOT NULL> NOT NULL THEN c.due_basis ELSE [] END) AS stored
SET c.version = $version, c.body = $body, c.updated_at = $now, c.updated_by = $by,
    c.due_basis = stored + [e IN $basis WHERE NOT any(x IN stored WHERE x STARTS WITH split(e, '=')[0] + '=')]
CREATE (h:AutomationConfigVersion {config_id: $id, version: $version})
SET h.body = $body, h.recorded_at = $now, h.recorded_by = $by
RETURN c.version AS version
