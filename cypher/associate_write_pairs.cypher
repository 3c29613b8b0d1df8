// Associate job (full pass, in process): the pairs graphmem.model.knn found, as RELATED_TO edges of one
// tenant (both ends are checked to be its memories); existing edges are reweighted. Weights and the
// threshold are true cosine, as at formation. The memories' decay_due: associate_mark, once each.
// $pairs: list of [element id, element id, cosine]; $user_id: the tenant; $now: datetime; $batch: rows per
// inner transaction; $concurrency: inner transactions at once (Cypher 25 only)
UNWIND $pairs AS p
CALL (p) {
  MATCH (a:Memory) WHERE elementId(a) = p[0] AND a.user_id = $user_id
  MATCH (b:Memory) WHERE elementId(b) = p[1] AND b.user_id = $user_id
  MERGE (a)-[r:RELATED_TO]-(b)
  ON CREATE SET r.recorded_at = $now, r.valid_from = $now, r.created_by = 'associate'
  SET r.weight = p[2], r.weight_base = p[2], r.similarity = p[2], r.weight_updated_at = $now,
      r.weight_due = datetime({epochSeconds: 0}), // the next decay run evaluates the edge (graphmem.model.edge_weights)
      r.method = 'knn'
  RETURN count(*) AS linked
// [vector filter] a Cypher 25 server: on every core; two inner transactions locking the same memory retry
} IN $concurrency CONCURRENT TRANSACTIONS OF $batch ROWS ON ERROR RETRY FOR 60 SECONDS THEN FAIL
// [end]
// [no vector filter]
} IN TRANSACTIONS OF $batch ROWS
// [end]
RETURN coalesce(sum(linked), 0) AS edges
