// Associate job (incremental, or the fallback without GDS): each live memory not linked yet (associated_at
// unset) is linked by RELATED_TO to its nearest neighbours of the same user from the vector index (cosine >=
// threshold), and marked; existing edges are reweighted. Older memories are not searched again: a new
// memory's edge to an old one is undirected. The index scores (1 + cos) / 2: weights and the threshold are
// true cosine, as at formation.
// $user_id: tenant, or null for all; $dimension: the embedding space's; $now: datetime; $p: DynamicsParams map; $k: neighbours per memory;
// $fetch: neighbours asked from the index (over-fetch for the tenant filter, or the tenant's own nearest with
// the vector-filter block: query(FILTERED + name)); $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant'] AND m.associated_at IS NULL AND m.embedding IS NOT NULL
WITH m WHERE {{typed_vector(m.embedding, $dimension)}} // only the pending memories' vectors are read
CALL (m) {
  SET m.associated_at = $now
  WITH m
  // [no vector filter]
  CALL db.index.vector.queryNodes('memory_embedding', $fetch, m.embedding) YIELD node, score AS scaled
  // [end]
  // [vector filter] every name a SEARCH uses is used nowhere else in the query (see recall_pool)
  WITH m, m AS probe
  MATCH (near:Memory)
    SEARCH near IN (VECTOR INDEX memory_embedding FOR probe.embedding WHERE near.user_id = probe.user_id
                    LIMIT $fetch)
    SCORE AS near_score
  WITH m, near AS node, near_score AS scaled
  // [end]
  WITH m, node, 2.0 * scaled - 1.0 AS score
  WHERE node.user_id = m.user_id AND node <> m AND node.status IN ['active', 'weak', 'dormant']
    AND score >= $p.associate_similarity
  WITH m, node, score ORDER BY score DESC LIMIT $k
  MERGE (m)-[r:RELATED_TO]-(node)
  ON CREATE SET r.recorded_at = $now, r.valid_from = $now, r.created_by = 'associate'
  SET r.weight = score, r.weight_base = score, r.similarity = score, r.weight_updated_at = $now,
      r.weight_due = datetime({epochSeconds: 0}), // the next decay run evaluates the edge (graphmem.model.edge_weights)
      r.method = 'vector_index', m.decay_due = datetime({epochSeconds: 0}), node.decay_due = datetime({epochSeconds: 0}) // association: a decay input
  RETURN count(*) AS linked
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS memories, coalesce(sum(linked), 0) AS edges
