// Vector seeds: cosine over memory embeddings.
// $dimension: the embedder's dimension (checked against an existing index by init()).
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
