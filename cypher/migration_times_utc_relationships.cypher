// init() migration, once per store (graphmem.temporal.migrate.TIMES_IN_UTC): every date-time property of a
// relationship held at an offset or a zone other than UTC is set to the same instant in UTC (why:
// migration_times_utc_nodes.cypher). Auto-commit, in inner transactions of $batch relationships; idempotent.
// Only relationships between nodes of graphmem's labels ($labels); a value the calendar cannot hold in UTC
// stays.
// $batch: relationships per inner transaction; $labels
MATCH (a)-[r]->(b)
WHERE any(label IN labels(a) WHERE label IN $labels) AND any(label IN labels(b) WHERE label IN $labels)
WITH r, [k IN keys(r) WHERE CASE WHEN r[k] IS :: ZONED DATETIME
  THEN r[k].timezone <> 'Z' AND 1 <= datetime({datetime: r[k], timezone: 'Z'}).year <= 9999 ELSE false END] AS moved
WHERE moved <> []
CALL (r, moved) {
  UNWIND moved AS k
  SET r[k] = datetime({datetime: r[k], timezone: 'Z'})
} IN TRANSACTIONS OF $batch ROWS
RETURN count(r) AS updated
