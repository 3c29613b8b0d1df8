// Plan warm-up (graphmem.retrieval.warmup): give a rehearsal transaction a pending change, as a real recall's
// reinforcement does before its other statements. Neo4j plans a statement apart when its transaction holds
// changes, so the rehearsal must hold one too; it is rolled back. An unlabelled node creates no token.
CREATE (change)
RETURN 1 AS changed
