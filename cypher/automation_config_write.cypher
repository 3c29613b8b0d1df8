// Write a new version of the automation configuration and keep the version in its history.
// $id: configuration id; $version: the new version; $body: JSON text; $now: datetime; $by: who wrote it
MATCH (c:AutomationConfig {id: $id})
SET c.version = $version, c.body = $body, c.updated_at = $now, c.updated_by = $by
CREATE (h:AutomationConfigVersion {config_id: $id, version: $version})
SET h.body = $body, h.recorded_at = $now, h.recorded_by = $by
RETURN c.version AS version
