// Vector seeds over the context key: the embedding of the previous turn + this turn (m.context_text),
// same embedder and dimension as memory_embedding.
// $dimension: the embedder's dimension.
CREATE VECTOR INDEX memory_context_embedding IF NOT EXISTS FOR (m:Memory) ON (m.context_embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
