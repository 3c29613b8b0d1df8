// Write re-embedded name vectors of a page of entities.
// $rows: list of {id, embedding}
UNWIND $rows AS row
MATCH (n:Entity {id: row.id})
SET n.embedding = row.embedding
RETURN count(*) AS written
