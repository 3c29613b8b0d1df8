// What ranking needs of candidate memories: text, session, state, speaker, query cosine, and when its
// statement was outdated (graphmem.model.timescope.currency)
// (recall's last-resort substring pool).
// Neo4j's vector.similarity.cosine is (1 + cos) / 2; graphmem min-max normalises it per query.
// $ids, $tenants (the tenant keys the read may see: graphmem.model.scopes), $embedding: list of floats or null
// $now: the recall's clock for the derived retention and strength (null: the server's); $with_metadata: a
// recall filter reads the metadata
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
RETURN m {.id, .content, .search_text, .session_id, .speaker, retention: {{retention_now(m, coalesce($now, datetime()))}}, strength: {{strength_now(m, coalesce($now, datetime()))}}, .importance, .confidence,
          .access_count, .outdated_from, .outdated_at, .reinstated_at,
          withdrawn: [m.withdrawn_from, m.withdrawn_at, m.withdrawn_until], cosine: null, .memory_type, .tags,
          metadata: CASE WHEN $with_metadata THEN m.metadata END} AS memory,
       CASE WHEN $embedding IS NULL THEN null ELSE {{typed_cosine(m.embedding, $embedding)}} END AS cosine
