// How many memories, entities and fact versions carry an embedding (the work of a re-embedding). No parameters.
CALL () { MATCH (m:Memory) WHERE m.embedding IS NOT NULL RETURN count(m) AS memories }
CALL () { MATCH (n:Entity) WHERE n.embedding IS NOT NULL RETURN count(n) AS entities }
CALL () { MATCH (f:Fact) WHERE f.embedding IS NOT NULL RETURN count(f) AS facts }
RETURN memories, entities, facts
