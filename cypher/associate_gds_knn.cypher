// Associate job (GDS): kNN (NN-descent) over the projected embeddings (cosine), written as RELATED_TO edges;
// existing edges are reweighted. At most 20 iterations sampling 80% of the candidates, stopping early once an
// iteration changes under 0.1% of the neighbour lists, on $concurrency threads: the former settings (sampling
// everything, never stopping early, one thread) ran all 100 iterations (173 s for a 100,000-memory tenant);
// on clustered vectors these find ~91% of the exact pairs above the threshold for ~35% of the CPU
// (docs/benchmarks.md). A pair found from both ends is written once. GDS scores cosine as (1 + cos) / 2:
// weights and the threshold are true cosine, as at formation.
// $graph: projection name; $k: neighbours per memory; $p: DynamicsParams map; $now: datetime; $batch;
// $concurrency: kNN threads (GDS Community allows up to 4)
CALL gds.knn.stream($graph, {
  nodeProperties: {embedding: 'COSINE'}, topK: $k, similarityCutoff: (1.0 + $p.associate_similarity) / 2.0,
  concurrency: $concurrency, sampleRate: 0.8, deltaThreshold: 0.001, maxIterations: 20
}) YIELD node1, node2, similarity AS scaled
WITH CASE WHEN node1 < node2 THEN [node1, node2] ELSE [node2, node1] END AS pair, scaled
WITH pair, max(scaled) AS scaled
WITH gds.util.asNode(pair[0]) AS a, gds.util.asNode(pair[1]) AS b, 2.0 * scaled - 1.0 AS similarity
CALL (a, b, similarity) {
  MERGE (a)-[r:RELATED_TO]-(b)
  ON CREATE SET r.recorded_at = $now, r.valid_from = $now, r.created_by = 'associate'
  SET r.weight = similarity, r.weight_base = similarity, r.similarity = similarity, r.weight_updated_at = $now,
      r.weight_due = datetime({epochSeconds: 0}), // the next decay run evaluates the edge (graphmem.model.edge_weights)
      r.method = 'gds_knn' // the memories' decay_due (association is a decay input): associate_mark, once each
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges
