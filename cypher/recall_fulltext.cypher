// Full-text (BM25) seeds for one tenant. The Lucene query requires the tenant's user_key token; the
// user_id filter below is what guarantees isolation.
// $lucene: the Lucene query string (built by graphmem.retrieval.search.lucene_query), $user_id, $k
// $as_of: datetime or null (valid time: memories that had happened by then, by occurred_at)
// $known_at: datetime or null (transaction time: recorded by then)
// $alive_at: the earlier of the two, or null (not yet forgotten, expired or merged away then)
CALL db.index.fulltext.queryNodes('memory_content', $lucene, {limit: $k}) YIELD node AS m, score
WITH m, score WHERE m.user_id = $user_id
  AND ($as_of IS NULL OR coalesce(m.occurred_at, m.created_at, m.recorded_at) <= $as_of)
  AND ($known_at IS NULL OR m.recorded_at <= $known_at)
  AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
       AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
  AND ($alive_at IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
RETURN m.id AS id, score
ORDER BY score DESC
