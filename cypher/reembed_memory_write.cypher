// Write re-embedded vectors of a page of memories, and the search keys of a memory written before formation
// stored them (keys: null for the others).
// $rows: list of {id, embedding, context_embedding (or null), keys: {search_text, context_text, event_start,
// event_end} or null}
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
FOREACH (k IN CASE WHEN row.keys IS NULL THEN [] ELSE [row.keys] END |
  SET m.search_text = k.search_text, m.context_text = k.context_text, m.event_start = k.event_start,
      m.event_end = k.event_end)
WITH m, row WHERE row.context_embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(m, 'context_embedding', row.context_embedding)
RETURN count(*) AS written
