// Associate job (GDS): project one user's live memories with their embeddings into an in-memory graph.
// $graph: projection name; $user_id: the tenant; $dimension: the embedding space's
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status IN ['active', 'weak', 'dormant'] AND m.embedding IS NOT NULL
WITH m, m.embedding AS embedding // read once
WHERE {{typed_vector(embedding, $dimension)}}
WITH gds.graph.project($graph, m, null, {sourceNodeProperties: {embedding: embedding}, targetNodeProperties: null}) AS g
RETURN g.nodeCount AS nodes
