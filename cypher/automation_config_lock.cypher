// Lock the automation configuration for an optimistic update (created at version 0 when missing) and
// return its version; the caller compares it with the expected one inside the same transaction.
// $id: configuration id; $now: datetime
MERGE (c:AutomationConfig {id: $id})
ON CREATE SET c.version = 0, c.created_at = $now
SET c.locked_at = $now
RETURN c.version AS version
