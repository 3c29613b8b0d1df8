"""Named Cypher queries, one statement per .cypher file, loaded by graphmem.store.queries."""
