// init() migration, once per store (graphmem.temporal.migrate.TIMES_IN_UTC): every date-time property of a node
// held at an offset or a zone other than UTC is set to the same instant in UTC. Neo4j orders two date-times of
// one instant by their offsets, so a stored time and a bound of the same instant at different offsets
// compared as different moments (graphmem.store.values.in_utc sends every parameter in UTC). Auto-commit, in
// inner transactions of $batch nodes; idempotent; only the representation changes, never the instant.
// Only nodes of graphmem's labels ($labels: graphmem.temporal.migrate.graphmem_labels), never another
// application's in a shared database; a value whose instant in UTC the calendar cannot hold (year 0 or
// 10000: 0001-01-01T00:00+05:00) is left as it is (Python could not read it).
// $batch: nodes per inner transaction; $labels
MATCH (n)
WHERE any(label IN labels(n) WHERE label IN $labels)
WITH n, [k IN keys(n) WHERE CASE WHEN n[k] IS :: ZONED DATETIME
  THEN n[k].timezone <> 'Z' AND 1 <= datetime({datetime: n[k], timezone: 'Z'}).year <= 9999 ELSE false END] AS moved
WHERE moved <> []
CALL (n, moved) {
  UNWIND moved AS k
  SET n[k] = datetime({datetime: n[k], timezone: 'Z'})
} IN TRANSACTIONS OF $batch ROWS
RETURN count(n) AS updated
