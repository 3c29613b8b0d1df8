// Vector seeds over the context key: the embedding of the previous turn + this turn (m.context_text),
// same embedder and dimension as memory_embedding.
// $dimension: the embedder's dimension.
CREATE VECTOR INDEX memory_context_embedding IF NOT EXISTS FOR (m:Memory) ON (m.context_embedding)
// [vector filter] Neo4j 2026.01+: the tenant is filtered inside the index (SEARCH … WHERE m.user_id = …)
WITH [m.user_id]
// [end]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
