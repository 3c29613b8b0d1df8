// Associate job (GDS): drop the in-memory projection (no error when it is gone).
// $graph: projection name
CALL gds.graph.drop($graph, false) YIELD graphName
RETURN graphName
