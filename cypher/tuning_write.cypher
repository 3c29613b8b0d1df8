// Write a new version of a user's tuned retrieval parameters (locked by automation_config_lock in the same
// transaction) and keep it, with the evidence that caused it, as an AutomationConfigVersion:UserTuning node.
// $id: the per-user configuration id; $user_id: tenant; $version: the new version; $body: JSON text;
// $evidence: JSON text; $now: datetime; $by: who wrote it
MATCH (c:AutomationConfig {id: $id})
SET c:UserTuning, c.user_id = $user_id, c.version = $version, c.body = $body, c.evidence = $evidence,
    c.updated_at = $now, c.updated_by = $by
CREATE (h:AutomationConfigVersion:UserTuning {config_id: $id, version: $version})
SET h.user_id = $user_id, h.body = $body, h.evidence = $evidence, h.recorded_at = $now, h.recorded_by = $by
RETURN c.version AS version
