// A user's tuned retrieval parameters: the per-user layer of the automation configuration (JSON body,
// version, evidence of the version in force).
// $id: the per-user configuration id; $user_id: tenant. The version as automation_config_lock reads it.
MATCH (c:AutomationConfig {id: $id}) WHERE c.user_id = $user_id
RETURN {{typed_count(c.version, 0)}} AS version, c.body AS body, c.evidence AS evidence, c.updated_at AS updated_at,
       c.updated_by AS updated_by
