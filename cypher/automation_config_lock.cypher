// Lock the automation configuration for an optimistic update (created at version 0 when missing) and
// return its version; the caller compares it with the expected one inside the same transaction.
// $id: configuration id; $now: datetime. A version of another type (set by hand) reads as 0, one above 2^40
// as 2^40 (fragments/typed_count), so the next version is one the driver can send.
MERGE (c:AutomationConfig {id: $id})
ON CREATE SET c.version = 0, c.created_at = $now
SET c.locked_at = $now
RETURN {{typed_count(c.version, 0)}} AS version
