// The marking statements a configuration change called for that have not completed yet (see
// automation_config_write.cypher).
// $id: configuration id
MATCH (c:AutomationConfig {id: $id})
RETURN coalesce(c.pending_marks, []) AS marks
