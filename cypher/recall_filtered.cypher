// Recall's second read, made only when a filtered recall's pool holds fewer than k memories the filter admits
// (graphmem.retrieval.filtered): the readable tenants' memories of the filter's types carrying all its tags,
// best $limit by cosine with the query (the better of the own and the context key, as recall_pool's exact scan
// scores), each with the row ranking reads (fragments/pool_memory: recall_pool's shape) and its two cosines.
// The tenants' memories are found by the memory_user index (no index can seek a tag: a range index does not
// index a list's members); the filter is checked on each, one property read for what it asks (a CASE, so that
// nothing is read for what it does not ask), before the times and status, which only the few that pass need:
// in this order the read took 102 ms p50 for a 100,000-memory tenant and a tag on 30 of its memories, against
// 247 ms with every predicate in one WHERE (same queries, load 2.2-2.4; docs/recall.md, Filters).
// Metadata is checked exactly in Python (graphmem.model.recall_filter); here only by substrings its JSON text
// holds for every memory the filter admits ($needles), so that $limit counts the likely ones.
// $tenants: the tenant keys the caller may read (graphmem.model.scopes); $embedding: the query's vector
// $types: memory types ([]: any); $tags: tags every memory must carry ([]: none); $needles: substrings the
// metadata text must hold ([]: none); $limit: rows returned
// $filtering, $with_metadata, $now, $situation: what the rows hold (as in recall_pool)
// $as_of: datetime or null (valid time: memories that had happened by then, by occurred_at)
// $known_at: datetime or null (transaction time: recorded by then)
// $alive_at: the earlier of the two, or null (not yet forgotten, expired or merged away then)
MATCH (m:Memory) WHERE m.user_id IN $tenants // memory_user: the tenants' memories; each then read for the filter
  AND CASE WHEN size($types) = 0 THEN true ELSE m.memory_type IN $types END
  AND CASE WHEN size($tags) = 0 THEN true
           ELSE [stored IN [m.tags] | stored IS :: LIST<STRING NOT NULL> AND all(tag IN $tags WHERE tag IN stored)][0]
      END
  AND CASE WHEN size($needles) = 0 THEN true
           ELSE [stored IN [m.metadata] | stored IS :: STRING NOT NULL
                                          AND all(needle IN $needles WHERE stored CONTAINS needle)][0]
      END
WITH m, {{typed_cosine(m.embedding, $embedding)}} AS own
WITH m, own, CASE WHEN m.context_embedding IS NULL THEN null
                  ELSE {{typed_cosine(m.context_embedding, $embedding)}} END AS ctx
WITH m, own, ctx, CASE WHEN own IS NULL OR ctx > own THEN ctx ELSE own END AS score
WHERE score IS NOT NULL // no readable vector: found by full text only, as in recall_pool's exact scan
  AND ($as_of IS NULL OR coalesce(m.occurred_at, m.created_at, m.recorded_at) <= $as_of)
  AND ($known_at IS NULL OR m.recorded_at <= $known_at)
  AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
       AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
       AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
  AND ($alive_at IS NOT NULL OR (m.expired_at IS NULL AND NOT m.status IN ['forgotten', 'superseded']))
ORDER BY score DESC LIMIT $limit
RETURN {{pool_memory(m, true)}} AS memory, own, ctx, score
