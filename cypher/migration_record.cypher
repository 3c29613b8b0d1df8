// Record that a one-time data migration of init() has completed on this store, so later inits skip it.
// $id: the migration's name; $now: datetime
MERGE (m:Migration {id: $id})
ON CREATE SET m.completed_at = $now
RETURN m.id AS id
