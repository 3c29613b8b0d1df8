// Decay job: evaluates only the memories whose status can have changed (decay_due <= $now, through the
// (user_id, decay_due) index) or whose decay inputs moved (every writer of an input sets decay_due to the
// epoch): it stores their four coefficients when they move (retention and strength are derived at read time
// from them: cypher/fragments/retention_now.cypher and strength_now.cypher), re-anchors strength when they
// moved, writes the status (active → weak → dormant) when it changed, and the next time the status can
// change (decay_due; 9999-01-01: none ahead). A memory without decay_due (written before it existed, or
// outside graphmem) is evaluated once: the migration. The specification is graphmem.model.lifecycle.decay and
// graphmem.model.anchors: P0 and common knowledge never decay (retention 1, status active, nothing ahead);
// ages count from recorded_at, not the message time; the salience of the emotion/presentation/coherence/
// serial/depth factors divides the rates, interference (1 + rivalry) multiplies them; association slows
// strength decay by the edges' base weights (stable, unlike their daily decayed weight). A due memory that is
// not live or is a pinned core block is only marked never due. With $p.store_base_activation every live
// memory is evaluated (the ACT-R base level moves daily) and stays due, so the first run after the option is
// turned off clears the base level. Idempotent: a rerun at the same $now writes nothing.
// $user_id: tenant, or null for all; $now: datetime (virtual clock); $p: graphmem.model.dynamics.DynamicsParams map
// $batch: rows per inner transaction
CALL () { // one tenant through the (user_id, decay_due) index; all tenants by a label scan (only when null)
  UNWIND CASE WHEN $user_id IS NULL OR $p.store_base_activation THEN [] ELSE [true] END AS due_only
  MATCH (m:Memory) WHERE m.user_id = $user_id AND m.decay_due <= $now RETURN m
  UNION ALL // never evaluated (written before decay_due existed, or outside graphmem): the migration
  UNWIND CASE WHEN $user_id IS NULL OR $p.store_base_activation THEN [] ELSE [true] END AS due_only
  MATCH (m:Memory) WHERE m.user_id = $user_id AND m.decay_due IS NULL RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NOT NULL AND $p.store_base_activation THEN [true] ELSE [] END AS every
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) WHERE m.decay_due IS NULL OR m.decay_due <= $now OR $p.store_base_activation RETURN m
}
CALL (m) {
WITH m, m.status IN ['active', 'weak', 'dormant'] AND NOT m:CoreBlock AS live // core blocks are pinned
FOREACH (_ IN CASE WHEN live OR m.decay_due = datetime('9999-01-01T00:00:00Z') THEN [] ELSE [1] END | SET m.decay_due = datetime('9999-01-01T00:00:00Z'))
WITH m WHERE live
WITH m, [(m)-[r:RELATED_TO]-(:Memory) WHERE r.expired_at IS NULL | coalesce({{typed_number(r.weight_base, null)}}, {{typed_number(r.weight, 0.0)}})] AS weights,
     coalesce(m.memory_type, 'episodic') AS type, coalesce(m.priority, 'P2') AS prio,
     {{typed_count(m.access_count, 0)}} AS n, {{typed_number(m.strength, 1.0)}} AS s0, $now.epochSeconds AS t,
     coalesce({{typed_time(m.recorded_at, null)}}, {{typed_time(m.created_at, $now)}}) AS anchor,
     // the factors emotion, presentation, coherence, serial, depth and rivalry, each read once and clamped to
     // [0, 1] (reading each guarded property at each of its three uses cost a quarter of this statement's
     // evaluation on 100,000 memories)
     [gm_v IN [{{typed_number(m.emotion, 0.0)}}, {{typed_number(m.presentation, 0.0)}}, {{typed_number(m.coherence, 0.0)}},
               {{typed_number(m.serial, 0.0)}}, {{typed_number(m.depth, 0.0)}}, {{typed_number(m.rivalry, 0.0)}}]
      | CASE WHEN gm_v > 1.0 THEN 1.0 WHEN gm_v < 0.0 THEN 0.0 ELSE gm_v END] AS f
WITH m, weights, type, prio, n, s0, t, anchor.epochSeconds AS created,
     $p.factor_weights.emotion * f[0] + $p.factor_weights.presentation * f[1] + $p.factor_weights.coherence * f[2]
     + $p.factor_weights.serial * f[3] + $p.factor_weights.depth * f[4] AS salience, 1.0 + f[5] AS rival,
     coalesce({{typed_time(m.last_accessed_at, null)}}, anchor).epochSeconds AS accessed,
     coalesce({{typed_time(m.strength_updated_at, null)}}, anchor).epochSeconds AS anchored, prio IN ['P0', 'common'] AS exempt
WITH m, type, prio, n, s0, t, salience, rival, created, accessed, exempt, size(weights) AS related,
     CASE WHEN accessed > anchored THEN accessed ELSE anchored END AS since,
     CASE WHEN size(weights) = 0 THEN 0.0 ELSE reduce(acc = 0.0, w IN weights | acc + w) / size(weights) END AS assoc
// the new coefficients (graphmem.model.lifecycle.coefficients)
WITH m, prio, s0, t, created, accessed, since, exempt, $p.strength_floor[prio] AS sfloor,
     [x IN [$p.strength_decay[prio] * rival / ((1.0 + $p.association_slowdown * assoc) * (1.0 + salience))]
      | CASE WHEN x > 1.0 THEN 1.0 ELSE x END][0] AS rate,
     CASE WHEN exempt THEN 0.0 ELSE $p.time_decay[type] * $p.priority_time_scale[prio] * rival / (1.0 + salience) END AS lam,
     CASE WHEN exempt THEN 1.0
          ELSE (1.0 + log(1 + n)) * $p.type_multiplier[type] * (1.0 + CASE WHEN 0.1 * related > 0.5 THEN 0.5 ELSE 0.1 * related END) / 5.0
     END AS scale
WITH m, prio, s0, t, created, accessed, since, exempt, sfloor, rate, lam, scale,
     coalesce(m.strength_rate <> rate OR m.strength_floor <> sfloor OR m.retention_scale <> scale
              OR m.retention_rate <> lam, true) AS moved,
     {{typed_number(m.strength_rate, rate)}} AS rate0, {{typed_number(m.strength_floor, sfloor)}} AS floor0,
     CASE WHEN t > since THEN (t - since) / 86400.0 ELSE 0.0 END AS ts
// strength now, decayed from its anchor by the stored coefficients (the new ones when there are none yet)
WITH m, prio, s0, t, created, accessed, since, exempt, sfloor, rate, lam, scale, moved,
     [x IN [CASE WHEN s0 <= floor0 OR ts = 0 OR rate0 <= 0 THEN s0
                 ELSE floor0 + (s0 - floor0) * (1.0 - CASE WHEN rate0 > 1.0 THEN 1.0 ELSE rate0 END) ^ ts END]
      | CASE WHEN x > 4.0 THEN 4.0 WHEN x < 0.0 THEN 0.0 ELSE x END][0] AS strength,
     [x IN [CASE WHEN s0 <= sfloor OR ts = 0 OR rate <= 0 THEN s0
                 ELSE sfloor + (s0 - sfloor) * (1.0 - rate) ^ ts END]
      | CASE WHEN x > 4.0 THEN 4.0 WHEN x < 0.0 THEN 0.0 ELSE x END][0] AS renewed
// re-anchor strength at now when the new coefficients would give another value (not retroactively)
WITH m, prio, s0, t, created, accessed, exempt, sfloor, rate, lam, scale, moved, strength,
     moved AND renewed <> strength AS reanchor,
     CASE WHEN moved AND renewed <> strength THEN CASE WHEN accessed > t THEN accessed ELSE t END ELSE since END AS since,
     CASE WHEN exempt THEN 1.0
          ELSE [x IN [scale * exp(-lam * CASE WHEN t > accessed THEN (t - accessed) / 86400.0 ELSE 0.0 END)
                      + 0.1 * [tc IN [CASE WHEN t > created THEN (t - created) / 86400.0 ELSE 0.0 END]
                               | CASE WHEN tc > 365.0 THEN 0.0 ELSE 1.0 - tc / 365.0 END][0]]
                | CASE WHEN x > 1.0 THEN 1.0 ELSE x END][0] END AS retention
WITH m, s0, t, created, accessed, exempt, sfloor, rate, lam, scale, moved, strength, reanchor, since, retention,
     CASE WHEN reanchor THEN strength ELSE CASE WHEN s0 > 4.0 THEN 4.0 WHEN s0 < 0.0 THEN 0.0 ELSE s0 END END AS sa,
     CASE WHEN exempt THEN 'active'
          WHEN retention < $p.dormant_retention OR strength < $p.dormant_strength THEN 'dormant'
          WHEN retention < $p.weak_retention OR strength < $p.weak_strength THEN 'weak'
          ELSE 'active' END AS status
// the next status change (graphmem.model.anchors.due): the thresholds of the next status, then the strength
// crossing in closed form and a lower bound of the retention crossing (Newton steps on a convex function)
WITH m, t, created, accessed, sfloor, rate, lam, scale, moved, strength, reanchor, since, status, sa,
     CASE WHEN exempt THEN null WHEN status = 'active' THEN $p.weak_retention
          WHEN status = 'weak' THEN $p.dormant_retention END AS theta_r,
     CASE WHEN exempt THEN null WHEN status = 'active' THEN $p.weak_strength
          WHEN status = 'weak' THEN $p.dormant_strength END AS theta_s
WITH m, t, created, accessed, sfloor, rate, lam, scale, moved, strength, reanchor, since, status, theta_r,
     CASE WHEN theta_s IS NULL OR sa <= sfloor OR rate <= 0 OR theta_s <= sfloor THEN null
          WHEN sa < theta_s OR rate >= 1.0 THEN toFloat(since)
          ELSE since + 86400.0 * log((theta_s - sfloor) / (sa - sfloor)) / log(1.0 - rate) END AS due_s,
     CASE WHEN theta_r IS NULL THEN null
          WHEN accessed > t OR created > t THEN toFloat(t)
          WHEN scale < theta_r THEN toFloat(t)
          WHEN lam > 0 THEN [x IN [accessed + 86400.0 * log(scale / theta_r) / lam] | CASE WHEN x > t THEN x ELSE toFloat(t) END][0]
     END AS x0
WITH m, t, moved, sfloor, rate, lam, scale, strength, reanchor, status, due_s,
     CASE WHEN accessed > t OR created > t THEN x0
          WHEN due_s IS NOT NULL AND x0 IS NOT NULL AND due_s <= x0 THEN null // strength moves it first
          ELSE reduce(x = x0, i IN range(1, 3) | CASE WHEN x IS NULL THEN null ELSE
            [e IN [scale * exp(-lam * (x - accessed) / 86400.0)] | [young IN [x - created < 31536000.0] |
             [g IN [e + CASE WHEN young THEN 0.1 * (1.0 - (x - created) / 31536000.0) ELSE 0.0 END] |
              [slope IN [lam * e / 86400.0 + CASE WHEN young THEN 0.1 / 31536000.0 ELSE 0.0 END] |
               CASE WHEN g < theta_r THEN x WHEN slope <= 0 THEN null ELSE x + (g - theta_r) / slope END][0]][0]][0]][0]
          END) END AS due_r
WITH m, moved, sfloor, rate, lam, scale, strength, reanchor, status,
     CASE WHEN due_s IS NULL AND due_r IS NULL THEN null
          ELSE datetime({epochSeconds: toInteger(floor(
            reduce(lo = t + 36500.0 * 86400.0, x IN [v IN [due_s, due_r] WHERE v IS NOT NULL] | CASE WHEN x < lo THEN x ELSE lo END)))})
     END AS due
WITH m, moved, sfloor, rate, lam, scale, strength, reanchor, status, due, m.status <> status AS changed,
     CASE WHEN status = 'dormant' AND m.layer <> 'long_term' THEN 'dormant'
          WHEN status <> 'dormant' AND m.layer = 'dormant' THEN 'active' ELSE m.layer END AS layer,
     [n IN [{{typed_count(m.access_count, 0)}}] | CASE WHEN $p.store_base_activation AND n > 0
       THEN log(n / 0.5) - 0.5 * log([tc IN [($now.epochSeconds - coalesce({{typed_time(m.recorded_at, null)}}, {{typed_time(m.created_at, $now)}}).epochSeconds) / 86400.0]
                                      | CASE WHEN tc < 0.000001 THEN 0.000001 ELSE tc END][0]) END][0] AS base,
     $p.store_base_activation OR m.base_activation IS NOT NULL AS activation
WITH m, moved, sfloor, rate, lam, scale, strength, reanchor, status, due, changed, layer, base, activation
WHERE changed OR moved OR activation OR coalesce(m.decay_due <> coalesce(due, datetime('9999-01-01T00:00:00Z')), true)
  SET m.strength_rate = rate, m.strength_floor = sfloor, m.retention_rate = lam, m.retention_scale = scale,
      m.strength = CASE WHEN reanchor THEN strength ELSE m.strength END,
      m.strength_updated_at = CASE WHEN reanchor THEN $now ELSE m.strength_updated_at END,
      m.status = status, m.layer = CASE WHEN changed THEN layer ELSE m.layer END,
      m.status_changed_at = CASE WHEN changed THEN $now ELSE m.status_changed_at END,
      m.base_activation = CASE WHEN activation THEN base ELSE m.base_activation END,
      m.decay_due = CASE WHEN $p.store_base_activation THEN datetime({epochSeconds: 0}) ELSE coalesce(due, datetime('9999-01-01T00:00:00Z')) END
  RETURN changed
} IN CONCURRENT TRANSACTIONS OF $batch ROWS
RETURN count(*) AS memories, sum(CASE WHEN changed THEN 1 ELSE 0 END) AS status_changed
