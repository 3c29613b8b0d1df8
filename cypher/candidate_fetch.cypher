// What the blend needs of candidate memories (no content): state, speaker, query cosine, and when its
// statement was outdated (graphmem.model.timescope.currency).
// Neo4j's vector.similarity.cosine is (1 + cos) / 2; graphmem min-max normalises it per query.
// $ids, $user_id, $embedding: list of floats or null
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id = $user_id
RETURN m {.id, .speaker, .retention, .strength, .importance, .confidence, .access_count, .outdated_from, .outdated_at} AS memory,
       CASE WHEN $embedding IS NULL THEN null ELSE vector.similarity.cosine(m.embedding, $embedding) END AS cosine
