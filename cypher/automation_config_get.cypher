// The stored automation configuration (JSON body and version).
// $id: configuration id. The version as automation_config_lock reads it.
MATCH (c:AutomationConfig {id: $id})
RETURN {{typed_count(c.version, 0)}} AS version, c.body AS body, c.updated_at AS updated_at
