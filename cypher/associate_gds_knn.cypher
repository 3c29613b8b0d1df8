// Associate job (GDS): kNN over the projected embeddings (cosine, deterministic), written as RELATED_TO
// edges; existing edges are reweighted. GDS scores cosine as (1 + cos) / 2: weights and the threshold are
// true cosine, as at formation.
// $graph: projection name; $k: neighbours per memory; $p: DynamicsParams map; $now: datetime; $batch
CALL gds.knn.stream($graph, {
  nodeProperties: {embedding: 'COSINE'}, topK: $k, similarityCutoff: (1.0 + $p.associate_similarity) / 2.0,
  randomSeed: 42, concurrency: 1, sampleRate: 1.0, deltaThreshold: 0.0
}) YIELD node1, node2, similarity AS scaled
WITH gds.util.asNode(node1) AS a, gds.util.asNode(node2) AS b, 2.0 * scaled - 1.0 AS similarity
CALL (a, b, similarity) {
  MERGE (a)-[r:RELATED_TO]-(b)
  ON CREATE SET r.recorded_at = $now, r.valid_from = $now, r.created_by = 'associate'
  SET r.weight = similarity, r.weight_base = similarity, r.similarity = similarity, r.weight_updated_at = $now,
      r.method = 'gds_knn'
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges
