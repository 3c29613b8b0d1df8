// The marking statements a configuration change called for that have not completed yet (see
// automation_config_write.cypher). A value of another type (written by hand) reads as none pending.
// $id: configuration id
MATCH (c:AutomationConfig {id: $id})
RETURN (CASE WHEN c.pending_marks IS :: LIST<STRING NOT NULL> NOT NULL THEN c.pending_marks ELSE [] END) AS marks
