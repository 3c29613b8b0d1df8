// A marking statement has run: it is no longer pending (see automation_config_write.cypher).
// $id: configuration id; $mark: the statement's name
MATCH (c:AutomationConfig {id: $id})
SET c.pending_marks = [x IN (CASE WHEN c.pending_marks IS :: LIST<STRING NOT NULL> NOT NULL THEN c.pending_marks ELSE [] END) WHERE x <> $mark]
RETURN size(c.pending_marks) AS pending
