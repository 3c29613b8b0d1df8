// Vector seeds: cosine over memory embeddings.
// $dimension: the embedder's dimension (checked against an existing index by init()).
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding)
// [vector filter] Neo4j 2026.01+: the tenant, and the valid and transaction time of an as_of / known_at
// read, are filtered inside the index (SEARCH … WHERE m.user_id = … AND m.occurred_at <= …)
WITH [m.user_id, m.occurred_at, m.recorded_at]
// [end]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
