// Consolidate job: resolve CONFLICTS_WITH between two live memories of a user: the newer one wins (said later:
// occurred_at, else created_at; before round 56 stored later, so an import newest first kept the old
// statements), the older one is forgotten as outdated (P0 and common knowledge are only marked conflicted,
// never forgotten; a memory a governance decision retained, or a current fact derives from (fragments/
// backs_fact), is left alone and the conflict stays open).
// $user_id: tenant, or null for all; $now: datetime; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (a:Memory) WHERE a.user_id = $user_id RETURN a
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (a:Memory) RETURN a
}
MATCH (a)-[c:CONFLICTS_WITH]-(b:Memory)
WHERE a.user_id = b.user_id AND c.resolved_at IS NULL
  AND a.status IN ['active', 'weak', 'dormant'] AND b.status IN ['active', 'weak', 'dormant']
  AND NOT coalesce(a.retained, false) AND NOT {{backs_fact(a, null)}}
  AND (coalesce(a.occurred_at, a.created_at) < coalesce(b.occurred_at, b.created_at)
       OR (coalesce(a.occurred_at, a.created_at) = coalesce(b.occurred_at, b.created_at) AND a.id < b.id))
CALL (a, b, c) {
  WITH a, b, c WHERE c.resolved_at IS NULL AND a.status IN ['active', 'weak', 'dormant']
  SET c.resolved_at = $now, c.resolution = 'newer_wins', c.winner = b.id,
      a.status_before_forgetting = a.status, a.outdated_by = b.id, a.status_changed_at = $now,
      a.status = CASE WHEN coalesce(a.priority, 'P2') IN ['P0', 'common'] THEN 'conflicted' ELSE 'forgotten' END,
      a.forgotten_at = CASE WHEN coalesce(a.priority, 'P2') IN ['P0', 'common'] THEN null ELSE $now END,
      a.forgotten_reason = CASE WHEN coalesce(a.priority, 'P2') IN ['P0', 'common'] THEN null ELSE 'outdated' END
  RETURN count(*) AS resolved
} IN TRANSACTIONS OF $batch ROWS
RETURN coalesce(sum(resolved), 0) AS resolved
