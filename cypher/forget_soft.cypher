// Forget job: soft-forget (status forgotten: out of recall, restorable) live memories below the retention or
// strength threshold once older than the minimum age. P0, common knowledge, memories a governance
// decision retained (m.retained), the statements a current fact derives from (fragments/backs_fact: the
// evidence for what is known now, however long the user stays away) and the summaries consolidate wrote are
// never forgotten. The minimum age counts from when graphmem recorded the memory (recorded_at), not the
// message time. Specification: graphmem.model.lifecycle.forgets.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
// Only a dormant memory, or one whose status can have changed since decay evaluated it (decay_due passed,
// never evaluated, or a decay_due of another type), can be below forget's thresholds: they are at most
// dormant's (DynamicsParams checks it), decay_due is never late, and a change of the thresholds or rates makes
// every memory due (decay_mark_due.cypher). Core blocks, which decay never evaluates, are always read. The
// rest is skipped before its retention and strength are derived (docs/dynamics.md, "Forget reads only what
// can be forgotten").
WITH m WHERE m.status IN ['active', 'weak', 'dormant']
  AND (m.status = 'dormant' OR NOT m.decay_due IS :: ZONED DATETIME NOT NULL OR m.decay_due <= $now OR m:CoreBlock)
  AND NOT coalesce(m.priority, 'P2') IN ['P0', 'common'] AND NOT coalesce(m.retained, false)
  AND NOT coalesce(m.is_summary = true, false) // a summary is the gist of what it replaced: it outlives the details
  AND coalesce(m.recorded_at, m.created_at) <= $now - duration({days: $p.forget_min_age_days})
// ... and only once $p.forget_min_newer of the user's memories were created after its last use (interference:
// forgetting makes room for what came since; a user who stays away adds nothing and so loses nothing). One
// seek per user, in the (user_id, created_at) index's order: the created_at of the user's forget_min_newer-th
// newest memory (summaries left out, they are no new learning); a memory last used before it has at least
// that many newer ones. A user with fewer memories gives null: nothing of theirs is taken. Checked before the
// thresholds: the dormant memories of users who stay away are read every run and cost a comparison each.
// Specification: graphmem.model.lifecycle.newer_count.
WITH m.user_id AS uid, collect(m) AS found
CALL (uid) {
  MATCH (x:Memory) WHERE x.user_id = uid AND x.created_at <= $now AND NOT coalesce(x.is_summary = true, false)
  WITH x ORDER BY x.user_id DESC, x.created_at DESC // the index's order: reads forget_min_newer rows, no sort
  SKIP CASE WHEN $p.forget_min_newer > 0 THEN $p.forget_min_newer - 1 ELSE 0 END LIMIT 1
  RETURN collect(x.created_at)[0] AS newer_from // one row always (null: fewer memories than that)
}
UNWIND found AS m
WITH m, uid, newer_from, coalesce({{typed_time(m.recorded_at, null)}}, {{typed_time(m.created_at, null)}}) AS anchor
WITH m WHERE ($p.forget_min_newer = 0 OR uid IS NULL // a memory of no user (written by hand): by time alone
       OR CASE WHEN {{typed_time(m.last_accessed_at, null)}} > anchor THEN m.last_accessed_at ELSE anchor END < newer_from)
  AND ({{retention_now(m, $now)}} < $p.forget_retention OR {{strength_now(m, $now)}} < $p.forget_strength)
  AND NOT {{backs_fact(m, null)}}
CALL (m) {
  SET m.status_before_forgetting = m.status, m.status = 'forgotten', m.forgotten_at = $now,
      m.forgotten_reason = 'decayed', m.status_changed_at = $now
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS forgotten
