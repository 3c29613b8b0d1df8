// Vector seeds: cosine over memory embeddings.
// $dimension: the embedder's dimension (checked against an existing index by init()).
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding)
// [vector filter] Neo4j 2026.01+: the tenant is filtered inside the index (SEARCH … WHERE m.user_id = …)
WITH [m.user_id]
// [end]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
