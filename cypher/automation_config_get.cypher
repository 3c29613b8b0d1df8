// The stored automation configuration (JSON body and version).
// $id: configuration id
MATCH (c:AutomationConfig {id: $id})
RETURN c.version AS version, c.body AS body, c.updated_at AS updated_at
