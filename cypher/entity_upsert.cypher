// Create or update entities (the entity view's nodes); a new surface form is kept as an alias.
// $entities: list of {id, user_id, name, type, key, aliases, embedding}
// $now: datetime
UNWIND $entities AS e
MERGE (n:Entity {id: e.id})
  ON CREATE SET n.user_id = e.user_id, n.name = e.name, n.type = e.type, n.key = e.key, n.aliases = [],
                n.mention_count = 0, n.created_at = $now, n.embedding = e.embedding
SET n.aliases = n.aliases + [a IN e.aliases WHERE NOT a IN n.aliases],
    n.updated_at = $now
RETURN count(n) AS upserted
