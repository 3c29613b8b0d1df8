// Decay job: retention, strength (decayed by the days since it last changed), ACT-R base level and status
// (active → weak → dormant) of live memories. Idempotent: a rerun at the same $now changes nothing.
// $user_id: tenant, or null for all; $now: datetime (virtual clock); $p: graphmem.dynamics.DynamicsParams map
// $batch: rows per inner transaction
MATCH (m:Memory)
WHERE ($user_id IS NULL OR m.user_id = $user_id) AND m.status IN ['active', 'weak', 'dormant']
  AND NOT m:CoreBlock // core memory blocks are pinned: they never decay
CALL (m) {
  OPTIONAL MATCH (m)-[r:RELATED_TO]-(:Memory)
  WHERE r.expired_at IS NULL
  WITH m, count(r) AS related, coalesce(avg(r.weight), 0.0) AS assoc
  WITH m, related, assoc, coalesce(m.memory_type, 'episodic') AS type, coalesce(m.priority, 'P2') AS prio,
       coalesce(m.access_count, 0) AS n, coalesce(m.strength, 1.0) AS s0,
       duration.inSeconds(coalesce(m.last_accessed_at, m.created_at), $now).seconds / 86400.0 AS ta,
       duration.inSeconds(m.created_at, $now).seconds / 86400.0 AS tc,
       duration.inSeconds(
         CASE WHEN m.last_accessed_at IS NOT NULL AND m.last_accessed_at > coalesce(m.strength_updated_at, m.created_at)
              THEN m.last_accessed_at ELSE coalesce(m.strength_updated_at, m.created_at) END, $now
       ).seconds / 86400.0 AS ts
  WITH m, related, type, prio, n, s0,
       CASE WHEN ta < 0 THEN 0.0 ELSE ta END AS ta, CASE WHEN tc < 0 THEN 0.0 ELSE tc END AS tc,
       CASE WHEN ts < 0 THEN 0.0 ELSE ts END AS ts,
       $p.strength_floor[prio] AS floor,
       $p.strength_decay[prio] / (1.0 + $p.association_slowdown * assoc) AS rate
  WITH m, n, s0, tc,
       exp(-$p.time_decay[type] * ta) * (1.0 + log(1 + n)) * $p.type_multiplier[type]
         * (1.0 + CASE WHEN 0.1 * related > 0.5 THEN 0.5 ELSE 0.1 * related END) / 5.0
         + 0.1 * CASE WHEN tc / 365.0 > 1.0 THEN 0.0 ELSE 1.0 - tc / 365.0 END AS raw,
       CASE WHEN s0 <= floor OR ts = 0 OR rate <= 0 THEN s0 ELSE floor + (s0 - floor) * (1.0 - rate) ^ ts END AS s1
  WITH m, n, tc, CASE WHEN raw > 1.0 THEN 1.0 ELSE raw END AS retention,
       CASE WHEN s1 > 4.0 THEN 4.0 WHEN s1 < 0.0 THEN 0.0 ELSE s1 END AS strength
  WITH m, n, tc, retention, strength,
       CASE WHEN retention < $p.dormant_retention OR strength < $p.dormant_strength THEN 'dormant'
            WHEN retention < $p.weak_retention OR strength < $p.weak_strength THEN 'weak'
            ELSE 'active' END AS status
  WITH m, n, tc, retention, strength, status, m.status <> status AS changed
  SET m.retention = retention, m.strength = strength, m.strength_updated_at = $now, m.decayed_at = $now,
      m.base_activation = CASE WHEN n > 0
        THEN log(n / 0.5) - 0.5 * log(CASE WHEN tc < 0.000001 THEN 0.000001 ELSE tc END) ELSE null END,
      m.status = status,
      m.status_changed_at = CASE WHEN changed THEN $now ELSE m.status_changed_at END,
      m.layer = CASE WHEN status = 'dormant' AND m.layer <> 'long_term' THEN 'dormant'
                     WHEN status <> 'dormant' AND m.layer = 'dormant' THEN 'active' ELSE m.layer END
  RETURN CASE WHEN changed THEN 1 ELSE 0 END AS moved
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS memories, coalesce(sum(moved), 0) AS status_changed
