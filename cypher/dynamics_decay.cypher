// Decay job: retention, strength (decayed by the days since it last changed) and status (active → weak →
// dormant) of live memories; the ACT-R base level too when $p.store_base_activation. The specification is
// graphmem.model.lifecycle.decay: P0 and common knowledge never decay (retention 1, strength kept, status
// active); ages count from recorded_at (when graphmem recorded the memory), not the message time; the
// salience of the emotion/presentation/coherence/serial/depth factors divides the rates, and interference
// (1 + rivalry: a stronger near-duplicate, set by the consolidate job) multiplies them. Idempotent: a rerun at the same
// $now changes nothing. Only memories where something moved are written.
// $user_id: tenant, or null for all; $now: datetime (virtual clock); $p: graphmem.model.dynamics.DynamicsParams map
// $batch: rows per inner transaction
CALL () { // one tenant through the user_id index; all tenants by a label scan (only when $user_id is null)
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant']
  AND NOT m:CoreBlock // core memory blocks are pinned: they never decay
  AND NOT coalesce(m.priority IN ['P0', 'common'] AND m.status = 'active' AND m.retention = 1.0 // settled
           AND 0.0 <= m.strength <= 4.0 AND $p.strength_decay[m.priority] = 0
           AND NOT $p.store_base_activation AND m.base_activation IS NULL, false)
// Speed: settled exempt memories (P0/common, active, retention 1, strength in range, not decaying) are not
// computed at all; the computation below runs inside the inner transactions, which run concurrently (one
// per server core by default), and writes each memory that moved with one SET.
CALL (m) {
WITH m, [(m)-[r:RELATED_TO]-(:Memory) WHERE r.expired_at IS NULL | coalesce(r.weight, 0.0)] AS weights,
     coalesce(m.memory_type, 'episodic') AS type, coalesce(m.priority, 'P2') AS prio,
     coalesce(m.access_count, 0) AS n, coalesce(m.strength, 1.0) AS s0, $now.epochSeconds AS t,
     coalesce(m.recorded_at, m.created_at) AS anchor,
     $p.factor_weights.emotion * CASE WHEN coalesce(m.emotion, 0.0) > 1.0 THEN 1.0 WHEN coalesce(m.emotion, 0.0) < 0.0 THEN 0.0 ELSE coalesce(m.emotion, 0.0) END
     + $p.factor_weights.presentation * CASE WHEN coalesce(m.presentation, 0.0) > 1.0 THEN 1.0 WHEN coalesce(m.presentation, 0.0) < 0.0 THEN 0.0 ELSE coalesce(m.presentation, 0.0) END
     + $p.factor_weights.coherence * CASE WHEN coalesce(m.coherence, 0.0) > 1.0 THEN 1.0 WHEN coalesce(m.coherence, 0.0) < 0.0 THEN 0.0 ELSE coalesce(m.coherence, 0.0) END
     + $p.factor_weights.serial * CASE WHEN coalesce(m.serial, 0.0) > 1.0 THEN 1.0 WHEN coalesce(m.serial, 0.0) < 0.0 THEN 0.0 ELSE coalesce(m.serial, 0.0) END
     + $p.factor_weights.depth * CASE WHEN coalesce(m.depth, 0.0) > 1.0 THEN 1.0 WHEN coalesce(m.depth, 0.0) < 0.0 THEN 0.0 ELSE coalesce(m.depth, 0.0) END AS salience,
     1.0 + CASE WHEN coalesce(m.rivalry, 0.0) > 1.0 THEN 1.0 WHEN coalesce(m.rivalry, 0.0) < 0.0 THEN 0.0 ELSE coalesce(m.rivalry, 0.0) END AS rival
WITH m, weights, type, prio, n, s0, t, salience, rival, anchor.epochSeconds AS created,
     coalesce(m.last_accessed_at, anchor).epochSeconds AS accessed,
     coalesce(m.strength_updated_at, anchor).epochSeconds AS anchored
WITH m, type, prio, n, s0, salience, rival, size(weights) AS related,
     CASE WHEN size(weights) = 0 THEN 0.0 ELSE reduce(acc = 0.0, w IN weights | acc + w) / size(weights) END AS assoc,
     CASE WHEN t < accessed THEN 0.0 ELSE (t - accessed) / 86400.0 END AS ta,
     CASE WHEN t < created THEN 0.0 ELSE (t - created) / 86400.0 END AS tc,
     CASE WHEN accessed > anchored
          THEN CASE WHEN t < accessed THEN 0.0 ELSE (t - accessed) / 86400.0 END
          ELSE CASE WHEN t < anchored THEN 0.0 ELSE (t - anchored) / 86400.0 END END AS ts
WITH m, n, s0, tc, ts, related, type, prio,
     $p.strength_floor[prio] AS floor,
     $p.strength_decay[prio] * rival / ((1.0 + $p.association_slowdown * assoc) * (1.0 + salience)) AS rate,
     exp(-$p.time_decay[type] * $p.priority_time_scale[prio] * rival / (1.0 + salience) * ta) * (1.0 + log(1 + n))
       * $p.type_multiplier[type] AS core
WITH m, n, s0, tc, prio,
     core * (1.0 + CASE WHEN 0.1 * related > 0.5 THEN 0.5 ELSE 0.1 * related END) / 5.0
       + 0.1 * CASE WHEN tc / 365.0 > 1.0 THEN 0.0 ELSE 1.0 - tc / 365.0 END AS raw,
     CASE WHEN s0 <= floor OR ts = 0 OR rate <= 0 THEN s0
          ELSE floor + (s0 - floor) * (1.0 - CASE WHEN rate > 1.0 THEN 1.0 ELSE rate END) ^ ts END AS s1
WITH m, n, s0, tc, prio IN ['P0', 'common'] AS exempt,
     CASE WHEN prio IN ['P0', 'common'] THEN 1.0 WHEN raw > 1.0 THEN 1.0 ELSE raw END AS retention,
     CASE WHEN s1 > 4.0 THEN 4.0 WHEN s1 < 0.0 THEN 0.0 ELSE s1 END AS strength
WITH m, n, s0, tc, retention, strength,
     CASE WHEN exempt THEN 'active'
          WHEN retention < $p.dormant_retention OR strength < $p.dormant_strength THEN 'dormant'
          WHEN retention < $p.weak_retention OR strength < $p.weak_strength THEN 'weak'
          ELSE 'active' END AS status
WITH m, retention, strength, status, m.status <> status AS changed, strength <> s0 AS decayed,
     CASE WHEN status = 'dormant' AND m.layer <> 'long_term' THEN 'dormant'
          WHEN status <> 'dormant' AND m.layer = 'dormant' THEN 'active' ELSE m.layer END AS layer,
     CASE WHEN $p.store_base_activation AND n > 0
          THEN log(n / 0.5) - 0.5 * log(CASE WHEN tc < 0.000001 THEN 0.000001 ELSE tc END) END AS base,
     $p.store_base_activation OR m.base_activation IS NOT NULL AS activation
WITH m, retention, strength, status, changed, decayed, layer, base, activation
WHERE changed OR decayed OR activation OR m.retention IS NULL OR abs(m.retention - retention) > 1e-9
  SET m.retention = retention, m.strength = strength,
      m.strength_updated_at = CASE WHEN decayed THEN $now ELSE m.strength_updated_at END,
      m.status = status, m.layer = CASE WHEN changed THEN layer ELSE m.layer END,
      m.status_changed_at = CASE WHEN changed THEN $now ELSE m.status_changed_at END,
      m.base_activation = CASE WHEN activation THEN base ELSE m.base_activation END
  RETURN changed
} IN CONCURRENT TRANSACTIONS OF $batch ROWS
RETURN count(*) AS memories, sum(CASE WHEN changed THEN 1 ELSE 0 END) AS status_changed
