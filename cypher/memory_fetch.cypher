// Candidate memories of one tenant by id, with their cosine similarity to the query (null without one).
// $ids, $user_id, $embedding: list of floats or null
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id = $user_id
RETURN m {.*, embedding: null, context_embedding: null} AS memory,
       CASE WHEN $embedding IS NULL THEN null ELSE vector.similarity.cosine(m.embedding, $embedding) END AS cosine
