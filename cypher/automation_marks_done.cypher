// A marking statement has run: it is no longer pending (see automation_config_write.cypher).
// $id: configuration id; $mark: the statement's name
MATCH (c:AutomationConfig {id: $id})
SET c.pending_marks = [x IN coalesce(c.pending_marks, []) WHERE x <> $mark]
RETURN size(c.pending_marks) AS pending
