// Consolidate job (competition, graphmem.model.heuristics.rivalry): each live memory's rivalry is the highest
// similarity of a strictly stronger live neighbour it is a near-duplicate of (RELATED_TO similarity at or
// above $p.rival_similarity), else 0; the decay job multiplies the memory's decay rates by 1 + rivalry, so
// the weaker of near-duplicates fades faster. Reads strengths, writes only rivalry (a rerun is stable).
// Only memories whose rivalry changes are written.
// $user_id: tenant, or null for all; $now: datetime (strengths are derived at it); $p: DynamicsParams map; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant']
WITH m, reduce(best = 0.0, x IN [(m)-[r:RELATED_TO]-(o:Memory)
         WHERE r.expired_at IS NULL AND o.status IN ['active', 'weak', 'dormant']
           AND coalesce({{typed_number(r.similarity, null)}}, {{typed_number(r.weight_base, null)}}, {{typed_number(r.weight, null)}}, 0.0) >= $p.rival_similarity
           AND {{strength_now(o, $now)}} > {{strength_now(m, $now)}}
         | CASE WHEN coalesce({{typed_number(r.similarity, null)}}, {{typed_number(r.weight_base, null)}}, {{typed_number(r.weight, null)}}, 0.0) > 1.0 THEN 1.0
                ELSE coalesce({{typed_number(r.similarity, null)}}, {{typed_number(r.weight_base, null)}}, {{typed_number(r.weight, null)}}, 0.0) END]
       | CASE WHEN x > best THEN x ELSE best END) AS rivalry
WITH m, rivalry WHERE coalesce(m.rivalry, 0.0) <> rivalry
CALL (m, rivalry) {
  SET m.rivalry = rivalry, m.decay_due = datetime({epochSeconds: 0})
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS rivalry_changed
