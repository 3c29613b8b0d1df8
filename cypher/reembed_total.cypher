// How many memories and entities carry an embedding (the work of a re-embedding). No parameters.
CALL () { MATCH (m:Memory) WHERE m.embedding IS NOT NULL RETURN count(m) AS memories }
CALL () { MATCH (n:Entity) WHERE n.embedding IS NOT NULL RETURN count(n) AS entities }
RETURN memories, entities
