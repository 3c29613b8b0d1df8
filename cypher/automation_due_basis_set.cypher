// Store one marking statement's basis entry (see automation_due_basis.cypher), only if its entries are still
// those read before ($seen; null: whatever they are), so two concurrent writers never store a basis newer
// than the dates; the statement is no longer pending, and entries and pending names of statements this version
// does not know are dropped.
// The configuration node is created (version 0, no body) when none is stored.
// $id: configuration id; $now: datetime; $statement: the marking statement; $seen: list of entries or null;
// $entry: the new entry; $known: every marking statement's name
MERGE (c:AutomationConfig {id: $id})
ON CREATE SET c.version = 0, c.created_at = $now
WITH c,
     (CASE WHEN c.due_basis IS :: LIST<STRING NOT NULL> NOT NULL THEN c.due_basis ELSE [] END) AS basis,
     (CASE WHEN c.pending_marks IS :: LIST<STRING NOT NULL> NOT NULL THEN c.pending_marks ELSE [] END) AS pending
WITH c, basis, pending, [x IN basis WHERE x STARTS WITH $statement + '='] AS own
WHERE $seen IS NULL OR own = $seen
SET c.due_basis = [x IN basis WHERE NOT x STARTS WITH $statement + '=' AND any(k IN $known WHERE x STARTS WITH k + '=')] + [$entry],
    c.pending_marks = (CASE WHEN c.pending_marks IS NULL THEN null ELSE [x IN pending WHERE x <> $statement AND x IN $known] END)
RETURN true AS stored
