// Review job (spaced repetition): a memory recalled since its last review gets its stability updated,
// S' = min(max, S · (1 + gain · (1 - e^(-gap / S)))); every live memory gets next_review_at = anchor
// - S · ln(desired retention) days (anchor: its last recall, else its creation). Idempotent.
// $user_id: tenant, or null for all; $now: datetime (the creation of a memory whose stored one is unreadable);
// $p: DynamicsParams map; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant']
  AND (m.next_review_at IS NULL
       OR (m.last_accessed_at IS NOT NULL AND coalesce(m.access_count, 0) > coalesce(m.review_access_count, 0)
           AND m.last_accessed_at > coalesce(m.reviewed_at, m.created_at)))
CALL (m) {
  // a stability or time of another type, or a time outside the years 1-9999 (written by hand), reads as
  // missing: a text stability failed the arithmetic, the calendar's last instant plus the stability is past
  // Neo4j's last year, and the job failed
  WITH m, coalesce({{typed_number(m.stability, null)}}, $p.initial_stability[coalesce(m.priority, 'P2')]) AS s0,
       coalesce({{typed_time(m.reviewed_at, null)}}, {{typed_time(m.created_at, $now)}}) AS ref,
       {{typed_time(m.last_accessed_at, null)}} AS accessed
  WITH m, s0, ref, accessed,
       accessed IS NOT NULL AND coalesce(m.access_count, 0) > coalesce(m.review_access_count, 0)
         AND accessed > ref AS recalled
  WITH m, s0, recalled, CASE WHEN recalled THEN accessed ELSE ref END AS anchor,
       CASE WHEN recalled THEN duration.inSeconds(ref, accessed).seconds / 86400.0 ELSE 0.0 END AS gap
  WITH m, anchor, CASE WHEN recalled THEN s0 * (1.0 + $p.stability_gain * (1.0 - exp(-gap / s0))) ELSE s0 END AS s1
  WITH m, anchor, CASE WHEN s1 > $p.max_stability_days THEN $p.max_stability_days ELSE s1 END AS s1
  SET m.stability = s1, m.reviewed_at = anchor, m.review_access_count = coalesce(m.access_count, 0),
      m.next_review_at = anchor + duration({seconds: toInteger(round(-s1 * log($p.desired_retention) * 86400.0))})
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS scheduled
