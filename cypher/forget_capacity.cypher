// Forget job: users over the live-memory cap lose their weakest memories first (lowest strength × priority
// weight × (1 + uses)); P0, common knowledge, retained memories (governance) and the statements a current
// fact derives from are exempt. No-op when $p.capacity_per_user is 0.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $weights: priority -> weight
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id AND $p.capacity_per_user > 0 RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL AND $p.capacity_per_user > 0 THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant']
WITH m.user_id AS uid, count(*) AS live
WHERE live > $p.capacity_per_user
CALL (uid, live) {
  MATCH (m:Memory)
  WHERE m.user_id = uid AND m.status IN ['active', 'weak', 'dormant']
    AND NOT coalesce(m.priority, 'P2') IN ['P0', 'common'] AND NOT coalesce(m.retained, false)
    AND NOT {{backs_fact(m, null)}}
  WITH m ORDER BY {{strength_now(m, $now)}} * $weights[coalesce(m.priority, 'P2')] * (1 + {{typed_count(m.access_count, 0)}}),
                  m.created_at
  WITH live, collect(m) AS ranked
  WITH ranked[..(live - $p.capacity_per_user)] AS victims
  UNWIND victims AS v
  SET v.status_before_forgetting = v.status, v.status = 'forgotten', v.forgotten_at = $now,
      v.forgotten_reason = 'capacity', v.status_changed_at = $now
  RETURN count(v) AS n
} IN TRANSACTIONS OF 1 ROWS
RETURN coalesce(sum(n), 0) AS forgotten
