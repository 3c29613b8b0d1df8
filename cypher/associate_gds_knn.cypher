// Associate job (GDS): kNN over the projected embeddings (cosine, deterministic), written as RELATED_TO
// edges; existing edges are reweighted.
// $graph: projection name; $k: neighbours per memory; $p: DynamicsParams map; $now: datetime; $batch
CALL gds.knn.stream($graph, {
  nodeProperties: {embedding: 'COSINE'}, topK: $k, similarityCutoff: $p.associate_similarity,
  randomSeed: 42, concurrency: 1, sampleRate: 1.0, deltaThreshold: 0.0
}) YIELD node1, node2, similarity
WITH gds.util.asNode(node1) AS a, gds.util.asNode(node2) AS b, similarity
CALL (a, b, similarity) {
  MERGE (a)-[r:RELATED_TO]-(b)
  ON CREATE SET r.recorded_at = $now, r.valid_from = $now, r.created_by = 'associate'
  SET r.weight = similarity, r.similarity = similarity, r.weight_updated_at = $now, r.method = 'gds_knn'
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS edges
