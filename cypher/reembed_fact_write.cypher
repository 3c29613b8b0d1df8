// Write re-embedded text vectors of a page of fact versions.
// $rows: list of {id, embedding}
UNWIND $rows AS row
MATCH (f:Fact {id: row.id})
CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)
RETURN count(*) AS written
