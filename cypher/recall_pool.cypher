// Recall's one read: the candidate pool and its graph neighbourhood, with everything ranking needs.
// Pool = the readable tenants' top $pool_k by cosine (an exact scan, or both ANN indexes, own and context key,
// over-fetched and filtered to the tenant or, where the server filters inside the index, asked for each
// tenant's own nearest; by $method: graphmem.retrieval.plan.plan_vector_search) plus the
// top $pool_k of the full-text index. Neighbourhood = memories one edge away
// (FOLLOWS, RELATED_TO, CAUSES) and memories sharing an entity with a pool memory (entities mentioned by
// $max_fan memories or more are hubs and skipped). In a present read, a source a summary replaced (forgotten,
// summarized_by) is a key of its summary: the summary scores the best of its own and its sources' cosines, and
// the best of its own and its sources' full-text scores (a source is a short document; the summary's own key,
// every source's words in one field, scores low on any one of them by BM25's length normalisation); `via` names
// the source that gave it that score (null when its own key did), and `vias` every replaced source the channel
// found, with its score ([id, score]), from which recall picks the hit's details (graphmem.retrieval.signals);
// for full text, `via_text` is the best source's text (and `via_asked` its asked key), which recall's BM25 scores
// in the summary's place.
// Rows are compact (what ranking reads: no times, which are slow to decode; the event range and when the memory was
// said (`said`, its occurred_at) come as epoch milliseconds, links as [src, dst, type, weight], each edge
// once); recall fetches the full rows of its top k with its write. Ranking runs in Python.
// $tenants: the tenant keys the caller may read (graphmem.model.scopes: its user, session, agent, org)
// $embedding: list of floats or null; $method: 'exact' | 'index' | 'filtered' | 'none'; $fetch: ANN neighbours
// (per index, and per tenant when 'filtered': that arm is in the query(FILTERED + name) text only);
// $time_filter: a 'filtered' read that also bounds $as_of / $known_at inside the index (else after it)
// $lucene: Lucene query string or null; $pool_k; $max_fan; $max_links: edges per pool memory
// $df_queries: [term, Lucene query of the tenants' memories holding it] per query term; $df_cap
// $scan_k: memories the exact scan keeps (when it keeps fewer, it scored all the readable memories: their cosines
// come back as `scores` [id, own, context], and the projection computes none again)
// $situation: the vector of the conversation the question comes from, or null (context-dependent recall: each
// row's `situation` is its context key's cosine with it)
// $filtering: whether a recall filter reads the memories' type and tags; $with_metadata: their metadata (JSON
// text) too (each left out otherwise)
// $now: the recall's clock for derived retention, strength and RELATED_TO weights (null: the server's)
// $as_of: datetime or null (valid time: memories that had happened by then, by occurred_at)
// $known_at: datetime or null (transaction time: recorded by then)
// $alive_at: the earlier of the two, or null (not yet forgotten, expired or merged away then)
// (edges: not ended by $as_of, recorded by $known_at, not expired at $alive_at)
CALL () { // the exact scan: the readable memories' cosines, best $scan_k first (one row; [] unless 'exact')
  WITH $method AS method WHERE method = 'exact'
  MATCH (m:Memory) WHERE m.user_id IN $tenants
    AND ($as_of IS NULL OR coalesce(m.occurred_at, m.created_at, m.recorded_at) <= $as_of)
    AND ($known_at IS NULL OR m.recorded_at <= $known_at)
    AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
         AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
         AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
    AND ($alive_at IS NOT NULL OR (m.expired_at IS NULL AND (NOT m.status IN ['forgotten', 'superseded']
         OR (m.status = 'forgotten' AND m.summarized_by IS NOT NULL)))) // a summarised source: a key, below
  WITH m, {{typed_cosine(m.embedding, $embedding)}} AS own
  WITH m, own, CASE WHEN m.context_embedding IS NULL THEN null
                    ELSE {{typed_cosine(m.context_embedding, $embedding)}} END AS ctx
  // a summarised source's match is its summary's (the id null for any other: half the seek's db hits)
  OPTIONAL MATCH (summary:Memory {id: CASE WHEN $alive_at IS NULL AND m.status = 'forgotten'
                                           THEN m.summarized_by END})
  WHERE $alive_at IS NULL AND m.status = 'forgotten' AND summary.user_id IN $tenants
    AND summary.expired_at IS NULL AND NOT summary.status IN ['forgotten', 'superseded']
  WITH CASE WHEN $alive_at IS NULL AND m.status = 'forgotten' THEN summary ELSE m END AS m, own, ctx,
       CASE WHEN $alive_at IS NULL AND m.status = 'forgotten' THEN m.id END AS via
  WHERE m IS NOT NULL
  WITH m, own, ctx, via, CASE WHEN own IS NULL OR ctx > own THEN ctx ELSE own END AS score
  WHERE score IS NOT NULL // no readable vector (one replaced by hand): found by full text only
  WITH m, max(own) AS own, max(ctx) AS ctx, max(score) AS score, // a summary: the best of its own and its
       collect(CASE WHEN via IS NOT NULL THEN {score: score, via: via} END) AS keys // sources' scores
  WITH m, own, ctx, score, keys,
       reduce(b = null, r IN keys | CASE WHEN b IS NULL OR r.score > b.score THEN r ELSE b END) AS best
  WITH m, own, ctx, score, CASE WHEN best.score >= score THEN best.via END AS via, // the source that gave it
       [r IN keys | [r.via, r.score]] AS vias
  ORDER BY score DESC LIMIT $scan_k
  RETURN collect({m: m, score: score, own: own, ctx: ctx, via: via, vias: vias}) AS scanned
}
WITH scanned, $method = 'exact' AND size(scanned) < $scan_k AS covered // every readable memory is scored
CALL (scanned) { // the pool: one row, its seeds and their nodes
  CALL (scanned) {
    UNWIND scanned[..$pool_k] AS s
    RETURN s.m AS m, s.score AS score, 'vector' AS source, s.via AS via, null AS via_text, null AS via_asked,
           s.vias AS vias
    UNION ALL
    WITH $method AS ann_method WHERE ann_method IN ['index', 'filtered'] // not 'method': the branches below bind it
    CALL () { // both keys, as the exact scan compares both: a memory scores the better of the two
      WITH $method AS method WHERE method = 'index' // over-fetched: every tenant's neighbours, filtered below
      CALL db.index.vector.queryNodes('memory_embedding', $fetch, $embedding) YIELD node AS m, score
      RETURN m, score
      UNION ALL
      WITH $method AS method WHERE method = 'index'
      CALL db.index.vector.queryNodes('memory_context_embedding', $fetch, $embedding) YIELD node AS m, score
      RETURN m, score
      // [vector filter] each readable tenant's own $fetch nearest, filtered inside the index (Neo4j 2026.01+;
      // every name a SEARCH uses is used nowhere else in the query: 2026.01.4 fails with an internal error
      // 'key not found: SymbolUse' when a name in a SEARCH is bound elsewhere too)
      UNION ALL
      WITH $method AS method WHERE method = 'filtered' AND NOT $time_filter
      UNWIND $tenants AS own_tenant
      MATCH (own_hit:Memory)
        SEARCH own_hit IN (VECTOR INDEX memory_embedding FOR $embedding WHERE own_hit.user_id = own_tenant
                           LIMIT $fetch)
        SCORE AS own_hit_score
      RETURN own_hit AS m, own_hit_score AS score
      UNION ALL
      WITH $method AS method WHERE method = 'filtered' AND NOT $time_filter
      UNWIND $tenants AS ctx_tenant
      MATCH (ctx_hit:Memory)
        SEARCH ctx_hit IN (VECTOR INDEX memory_context_embedding FOR $embedding
                           WHERE ctx_hit.user_id = ctx_tenant LIMIT $fetch)
        SCORE AS ctx_hit_score
      RETURN ctx_hit AS m, ctx_hit_score AS score
      // a time-scoped read ($time_filter: both indexes list the two times): the nearest the read may see, by
      // valid time (occurred_at, which every memory graphmem writes carries; init() backfills older ones)
      // and transaction time, the unset one unbounded
      UNION ALL
      WITH $method AS method WHERE method = 'filtered' AND $time_filter
      UNWIND $tenants AS own_past_tenant
      MATCH (own_past:Memory)
        SEARCH own_past IN (VECTOR INDEX memory_embedding FOR $embedding WHERE own_past.user_id = own_past_tenant
                            AND own_past.occurred_at <= coalesce($as_of, datetime('9999-12-31T23:59:59Z'))
                            AND own_past.recorded_at <= coalesce($known_at, datetime('9999-12-31T23:59:59Z'))
                            LIMIT $fetch)
        SCORE AS own_past_score
      RETURN own_past AS m, own_past_score AS score
      UNION ALL
      WITH $method AS method WHERE method = 'filtered' AND $time_filter
      UNWIND $tenants AS ctx_past_tenant
      MATCH (ctx_past:Memory)
        SEARCH ctx_past IN (VECTOR INDEX memory_context_embedding FOR $embedding
                            WHERE ctx_past.user_id = ctx_past_tenant
                            AND ctx_past.occurred_at <= coalesce($as_of, datetime('9999-12-31T23:59:59Z'))
                            AND ctx_past.recorded_at <= coalesce($known_at, datetime('9999-12-31T23:59:59Z'))
                            LIMIT $fetch)
        SCORE AS ctx_past_score
      RETURN ctx_past AS m, ctx_past_score AS score
      // [end]
    }
    WITH m, score WHERE m.user_id IN $tenants
      AND ($as_of IS NULL OR coalesce(m.occurred_at, m.created_at, m.recorded_at) <= $as_of)
      AND ($known_at IS NULL OR m.recorded_at <= $known_at)
      AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
           AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
           AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
      AND ($alive_at IS NOT NULL OR (m.expired_at IS NULL AND (NOT m.status IN ['forgotten', 'superseded']
           OR (m.status = 'forgotten' AND m.summarized_by IS NOT NULL))))
    WITH m, score AS own
    // a summarised source's match is its summary's (the id null for any other: half the seek's db hits)
    OPTIONAL MATCH (summary:Memory {id: CASE WHEN $alive_at IS NULL AND m.status = 'forgotten'
                                             THEN m.summarized_by END})
    WHERE $alive_at IS NULL AND m.status = 'forgotten' AND summary.user_id IN $tenants
      AND summary.expired_at IS NULL AND NOT summary.status IN ['forgotten', 'superseded']
    WITH CASE WHEN $alive_at IS NULL AND m.status = 'forgotten' THEN summary ELSE m END AS m, own,
         CASE WHEN $alive_at IS NULL AND m.status = 'forgotten' THEN m.id END AS via
    WHERE m IS NOT NULL
    WITH m, collect({score: own, via: via}) AS keys
    WITH m, keys, reduce(b = null, r IN keys | CASE WHEN b IS NULL OR r.score > b.score THEN r ELSE b END) AS best
    WITH m, best.score AS score, best.via AS via,
         [r IN keys WHERE r.via IS NOT NULL | [r.via, r.score]] AS vias ORDER BY score DESC LIMIT $pool_k
    RETURN m, score, 'vector' AS source, via, null AS via_text, null AS via_asked, vias
    UNION ALL
    WITH $lucene AS lucene WHERE lucene IS NOT NULL
    CALL db.index.fulltext.queryNodes('memory_content', lucene, {limit: $pool_k}) YIELD node AS m, score
    WITH m, score WHERE m.user_id IN $tenants
      AND ($as_of IS NULL OR coalesce(m.occurred_at, m.created_at, m.recorded_at) <= $as_of)
      AND ($known_at IS NULL OR m.recorded_at <= $known_at)
      AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
           AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
           AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
      AND ($alive_at IS NOT NULL OR (m.expired_at IS NULL AND (NOT m.status IN ['forgotten', 'superseded']
           OR (m.status = 'forgotten' AND m.summarized_by IS NOT NULL))))
    // a summarised source's words are its summary's key (the id null for any other: half the seek's db hits)
    OPTIONAL MATCH (summary:Memory {id: CASE WHEN $alive_at IS NULL AND m.status = 'forgotten'
                                             THEN m.summarized_by END})
    WHERE $alive_at IS NULL AND m.status = 'forgotten' AND summary.user_id IN $tenants
      AND summary.expired_at IS NULL AND NOT summary.status IN ['forgotten', 'superseded']
    WITH CASE WHEN $alive_at IS NULL AND m.status = 'forgotten' THEN summary ELSE m END AS m, score,
         CASE WHEN $alive_at IS NULL AND m.status = 'forgotten' THEN m END AS key
    WHERE m IS NOT NULL
    WITH m, collect({score: score, via: key.id, text: coalesce(key.search_text, key.content), asked: key.asked}) AS keys
    WITH m, keys, reduce(b = null, r IN keys | CASE WHEN b IS NULL OR r.score > b.score THEN r ELSE b END) AS best
    RETURN m, best.score AS score, 'fulltext' AS source, best.via AS via, best.text AS via_text,
           best.asked AS via_asked,
           [r IN keys WHERE r.via IS NOT NULL | [r.via, r.score]] AS vias
  }
  WITH m, collect({source: source, score: score, via: via, via_text: via_text, via_asked: via_asked, vias: vias})
       AS found
  RETURN collect({id: m.id, found: found}) AS seeds, collect(m) AS pool
}
CALL (pool) {
  UNWIND pool AS p
  CALL (p) { // each pool memory's $max_links strongest edges: FOLLOWS and CAUSES, then RELATED_TO by weight
    MATCH (p)-[r:RELATED_TO|FOLLOWS|CAUSES]-(n:Memory)
    WHERE n.user_id IN $tenants
      AND ($known_at IS NULL OR r.recorded_at <= $known_at)
      AND ($alive_at IS NULL OR r.expired_at IS NULL OR r.expired_at > $alive_at)
      AND ($as_of IS NULL OR r.valid_to IS NULL OR r.valid_to > $as_of)
      AND ($alive_at IS NOT NULL OR r.expired_at IS NULL)
      AND ($as_of IS NULL OR coalesce(n.occurred_at, n.created_at, n.recorded_at) <= $as_of)
      AND ($known_at IS NULL OR n.recorded_at <= $known_at)
      AND ($alive_at IS NULL OR ((n.expired_at IS NULL OR n.expired_at > $alive_at)
           AND (n.forgotten_at IS NULL OR n.forgotten_at > $alive_at)
           AND (n.superseded_at IS NULL OR n.superseded_at > $alive_at)))
      AND ($alive_at IS NOT NULL OR (n.expired_at IS NULL AND NOT n.status IN ['forgotten', 'superseded']))
    WITH r, n, coalesce({{edge_weight_now(r, coalesce($now, datetime()))}}, 1.0) AS weight
    ORDER BY CASE type(r) WHEN 'RELATED_TO' THEN 0 ELSE 1 END DESC, weight DESC
    LIMIT $max_links
    RETURN r, n, weight
  }
  WITH collect(DISTINCT n) AS near, collect(DISTINCT [r, weight]) AS rels
  RETURN near, [x IN rels | [startNode(x[0]).id, endNode(x[0]).id, type(x[0]), x[1]]] AS links
}
CALL (pool) {
  UNWIND pool AS p
  OPTIONAL MATCH (p)-[r:ENTITY]->(e:Entity) WHERE ($alive_at IS NOT NULL OR r.expired_at IS NULL)
    AND e.user_id = p.user_id // an edge alone (one made by hand) never brings another tenant's entity
  WITH DISTINCT e WHERE e IS NOT NULL
  WITH e, COUNT { (e)<-[:ENTITY]-() } AS fan WHERE fan < $max_fan
  MATCH (e)<-[r:ENTITY]-(n:Memory)
  WHERE n.user_id IN $tenants
    AND ($alive_at IS NOT NULL OR r.expired_at IS NULL)
    AND ($as_of IS NULL OR coalesce(n.occurred_at, n.created_at, n.recorded_at) <= $as_of)
    AND ($known_at IS NULL OR n.recorded_at <= $known_at)
    AND ($alive_at IS NULL OR ((n.expired_at IS NULL OR n.expired_at > $alive_at)
         AND (n.forgotten_at IS NULL OR n.forgotten_at > $alive_at)
         AND (n.superseded_at IS NULL OR n.superseded_at > $alive_at)))
    AND ($alive_at IS NOT NULL OR (n.expired_at IS NULL AND NOT n.status IN ['forgotten', 'superseded']))
  RETURN collect(DISTINCT n) AS members,
         collect({entity: e.id, name: e.name, fan: fan, memory: n.id, weight: {{typed_number(r.weight, 1.0)}}})
           AS mentions
}
CALL (pool, near, members, covered) {
  UNWIND pool + near + members AS n
  WITH DISTINCT n
  RETURN collect({{pool_memory(n, covered)}}) AS memories // the rows ranking reads: fragments/pool_memory
}
CALL () { // each query term's document frequency in the readable tenants, for BM25 with the tenants' own
  // statistics (graphmem.retrieval.bm25): the index's hits of '+user_key:… +(term)', counted up to $df_cap
  UNWIND $df_queries AS dq
  CALL (dq) {
    CALL db.index.fulltext.queryNodes('memory_content', dq[1], {limit: $df_cap}) YIELD node
    RETURN count(node) AS df
  }
  RETURN collect([dq[0], df]) AS frequencies
}
RETURN seeds, links, mentions, memories, frequencies,
       CASE WHEN covered THEN [s IN scanned | [s.m.id, s.own, s.ctx]] ELSE [] END AS scores
