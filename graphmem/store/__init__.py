"""The one seam to Neo4j: named queries, the driver wrapper, records, audit and idempotency."""
