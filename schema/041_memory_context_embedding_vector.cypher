// Vector seeds over the context key: the embedding of the previous turn + this turn (m.context_text),
// same embedder and dimension as memory_embedding.
// $dimension: the embedder's dimension.
CREATE VECTOR INDEX memory_context_embedding IF NOT EXISTS FOR (m:Memory) ON (m.context_embedding)
// [vector filter] Neo4j 2026.01+: the tenant, and the valid and transaction time of an as_of / known_at
// read, are filtered inside the index (SEARCH … WHERE m.user_id = … AND m.occurred_at <= …)
WITH [m.user_id, m.occurred_at, m.recorded_at]
// [end]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
