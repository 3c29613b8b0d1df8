// Consolidate job (sleep-style): find contradictions between live memories from their facts. When a fact
// version from one memory superseded (SUPERSEDES) the version stated by an older memory (same user, type and
// key: the same entity and attribute, another value; older: said earlier, occurred_at, whatever order the
// memories were stored in, so a conversation imported newest first is consolidated as one imported in
// order, round 56), the older memory is marked CONFLICTS_WITH the newer
// one (reason fact_superseded) and left for consolidate_conflicts to forget as outdated, unless a current
// fact still derives from it (then the conflict is recorded as resolved, kept_partly_current). A contradiction
// the fact layer kept (Fact CONFLICTS_WITH Fact) is marked between the memories as resolved, kept.
// A plan not started yet ("I'm moving to Manchester next month") is left until its start: until then the
// value it replaces holds, and the plan may still be called off; a plan called off (retracted) is left for
// good, as is the version that continues the value it would have ended. A record revoked by a value that
// arrived late (graphmem.model.fact_history: York's record that ran to Manchester's start, re-recorded to end
// at Leeds's) is left: its edges are what the engine no longer believes. Idempotent: a pair already linked by
// CONFLICTS_WITH is skipped.
// $user_id: tenant, or null for all; $now: datetime; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (fn:Fact) WHERE fn.user_id = $user_id RETURN fn
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (fn:Fact) RETURN fn
}
MATCH (fn)-[e:SUPERSEDES|CONFLICTS_WITH]->(fo:Fact)
WHERE fo.user_id = fn.user_id
  AND NOT coalesce(fn.planned_at IS NOT NULL AND fn.valid_from > $now, false) // a plan not started yet
  AND NOT 'retracted' IN [fn.status, fo.status] // a withdrawn version superseded nothing, nor was superseded
  AND fn.revoked_at IS NULL AND fo.revoked_at IS NULL // a record a late value replaced: its edges no longer hold
MATCH (fn)-[:DERIVED_FROM]->(mn:Memory)
MATCH (fo)-[:DERIVED_FROM]->(mo:Memory) // two clauses: each fact's memories (the planner warned of a product)
WHERE mn <> mo AND mn.user_id = fn.user_id AND mo.user_id = fn.user_id
  AND mn.status IN ['active', 'weak', 'dormant'] AND mo.status IN ['active', 'weak', 'dormant']
  AND NOT EXISTS { (mo)-[:CONFLICTS_WITH]-(mn) }
WITH DISTINCT mo, mn, type(e) AS kind, fo.key AS key, fo.value AS old_value, fn.value AS new_value
WITH mo, mn, collect({kind: kind, key: key, old_value: old_value, new_value: new_value})[0] AS why
CALL (mo, mn, why) {
  WITH mo, mn, why,
       why.kind = 'SUPERSEDES'
         AND (coalesce(mo.occurred_at, mo.created_at) < coalesce(mn.occurred_at, mn.created_at)
              OR (coalesce(mo.occurred_at, mo.created_at) = coalesce(mn.occurred_at, mn.created_at)
                  AND mo.id < mn.id))
         AND NOT EXISTS { (:Fact {status: 'current'})-[:DERIVED_FROM]->(mo) } AS outdated
  MERGE (mo)-[c:CONFLICTS_WITH]->(mn)
  ON CREATE SET c.recorded_at = $now, c.valid_from = $now, c.weight = 1.0, c.detected_by = 'consolidate',
                c.reason = CASE WHEN why.kind = 'SUPERSEDES' THEN 'fact_superseded' ELSE 'fact_conflict' END,
                c.key = why.key, c.old_value = why.old_value, c.new_value = why.new_value,
                c.resolved_at = CASE WHEN outdated THEN null ELSE $now END,
                c.resolution = CASE WHEN outdated THEN null
                                    WHEN why.kind = 'SUPERSEDES' THEN 'kept_partly_current' ELSE 'kept' END
  RETURN count(c) AS marked, sum(CASE WHEN outdated THEN 1 ELSE 0 END) AS outdating
} IN TRANSACTIONS OF $batch ROWS
RETURN coalesce(sum(marked), 0) AS conflicts_detected, coalesce(sum(outdating), 0) AS outdated_detected
