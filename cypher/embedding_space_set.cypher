// Record the vector space of this store's embeddings (the embedder's name and dimension).
// $name, $dimension, $now: datetime
MERGE (s:EmbeddingSpace {id: 'default'})
SET s.name = $name, s.dimension = $dimension, s.recorded_at = $now
RETURN s.name AS name
