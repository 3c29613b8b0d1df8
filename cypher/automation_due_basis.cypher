// What the stored due dates of the scheduling jobs were computed under (graphmem.automation.config
// DUE_MARKS): one entry "statement=fingerprint" per marking statement, and the markings an older version left
// pending (pending_marks, read as a mismatch). A value of another type (written by hand) reads as none stored.
// $id: configuration id
OPTIONAL MATCH (c:AutomationConfig {id: $id})
RETURN (CASE WHEN c.due_basis IS :: LIST<STRING NOT NULL> NOT NULL THEN c.due_basis ELSE [] END) AS basis,
       (CASE WHEN c.pending_marks IS :: LIST<STRING NOT NULL> NOT NULL THEN c.pending_marks ELSE [] END) AS pending
