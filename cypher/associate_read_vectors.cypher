// Associate job (full pass, in process): one tenant's live memories with their vectors, for
// graphmem.model.knn. A vector replaced by hand (not a list of the space's dimension) is left out.
// $user_id: the tenant; $dimension: the embedding space's
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status IN ['active', 'weak', 'dormant'] AND m.embedding IS NOT NULL
WITH m, m.embedding AS embedding // read once
WHERE {{typed_vector(embedding, $dimension)}}
// [vector filter] a Cypher 25 server (2026.01+): each vector as one packed VECTOR value, read in ~60 % of the time
RETURN elementId(m) AS id, vector(embedding, $dimension, FLOAT32) AS embedding
// [end]
// [no vector filter]
RETURN elementId(m) AS id, embedding
// [end]
