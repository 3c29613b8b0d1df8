// Entity resolution: the user's stored entities nearest a new name (cypher/entity_similar_index.cypher), so
// formation's cost does not grow with the user's entities. Used only where it filters by tenant and is online
// (graphmem.store.runtime.VectorFilter); elsewhere entity_similar scans the user's entities.
// $dimension: the embedder's dimension (the memory indexes' too).
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON (e.embedding)
// [vector filter] Neo4j 2026.01+: the tenant is filtered inside the index (SEARCH … WHERE e.user_id = …)
WITH [e.user_id]
// [end]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
