// Associate job (full pass, in process): one tenant's live memories with their vectors, for
// graphmem.model.knn. A vector replaced by hand with another type or size is left out here; non-finite
// coordinates are dropped in process (graphmem.dynamics.steps: checking every coordinate here cost 0.7 s of
// 100,000 vectors' 4 s read). On Cypher 25, vector() refuses a non-finite coordinate, or one beyond float32's
// range, for the whole statement: the job then reads the same rows as lists (the plain variant).
// $user_id: the tenant; $dimension: the embedding space's
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status IN ['active', 'weak', 'dormant'] AND m.embedding IS NOT NULL
WITH m, m.embedding AS embedding // read once
WHERE coalesce(embedding IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(embedding) = $dimension, false)
// [vector filter] a Cypher 25 server (2026.01+): each vector as one packed VECTOR value, read in ~60 % of the time
RETURN elementId(m) AS id, vector(embedding, $dimension, FLOAT32) AS embedding
// [end]
// [no vector filter]
RETURN elementId(m) AS id, embedding
// [end]
