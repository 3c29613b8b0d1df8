// Write re-embedded vectors of a page of memories.
// $rows: list of {id, embedding, context_embedding (or null)}
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
WITH m, row WHERE row.context_embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(m, 'context_embedding', row.context_embedding)
RETURN count(*) AS written
