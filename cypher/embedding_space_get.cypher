// The vector space this store's embeddings live in (one node per database), and whether any memory exists.
// No parameters.
OPTIONAL MATCH (s:EmbeddingSpace {id: 'default'})
CALL () { MATCH (m:Memory) WHERE m.embedding IS NOT NULL RETURN count(m) > 0 AS has_vectors LIMIT 1 }
RETURN s.name AS name, s.dimension AS dimension, has_vectors
