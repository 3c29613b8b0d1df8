// Consolidate job (inhibition between conflicting memories, graphmem.model.metamemory.ranking_factor): each
// live memory's open_conflicts counts its CONFLICTS_WITH edges to another live memory that consolidate_conflicts
// left unresolved (one side retained by a governance decision) while neither side is confirmed by feedback;
// ranking lowers a memory with open conflicts until one side is confirmed. Only changed counts are written.
// $user_id: tenant, or null for all; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant', 'conflicted']
WITH m, COUNT { (m)-[c:CONFLICTS_WITH]-(o:Memory)
                WHERE c.resolved_at IS NULL AND c.expired_at IS NULL
                  AND o.status IN ['active', 'weak', 'dormant', 'conflicted']
                  AND coalesce(m.confirmed, 0) = 0 AND coalesce(o.confirmed, 0) = 0 } AS open
WITH m, open WHERE coalesce(m.open_conflicts, 0) <> open
CALL (m, open) {
  SET m.open_conflicts = open
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS open_conflicts_changed
