// A user's history as dated events, oldest first: memories (at their occurred time, i.e. valid time),
// memory updates and forgetting, fact versions recorded and closed; each with the transaction time the
// engine recorded it (`recorded`), so $known_at keeps only what had been recorded by then.
// $user_id, $start (null: open), $end (null: open), $known_at (null: now)
CALL () {
  MATCH (m:Memory) WHERE m.user_id = $user_id
  RETURN coalesce(m.occurred_at, m.created_at) AS at, m.recorded_at AS recorded, 'memory' AS kind, m.id AS id,
         m.content AS text, m.session_id AS session_id
  UNION ALL
  MATCH (m:Memory) WHERE m.user_id = $user_id AND m.forgotten_at IS NOT NULL
  RETURN m.forgotten_at AS at, m.forgotten_at AS recorded, 'memory_forgotten' AS kind, m.id AS id,
         m.forgotten_reason AS text, m.session_id AS session_id
  UNION ALL
  MATCH (v:MemoryVersion) WHERE v.user_id = $user_id
  RETURN v.expired_at AS at, v.expired_at AS recorded, 'memory_updated' AS kind, v.memory_id AS id,
         v.content AS text, null AS session_id
  UNION ALL
  MATCH (f:Fact) WHERE f.user_id = $user_id
  RETURN f.recorded_at AS at, f.recorded_at AS recorded, 'fact_recorded' AS kind, f.id AS id,
         f.key + ' = ' + f.value AS text, null AS session_id
  UNION ALL
  MATCH (f:Fact) WHERE f.user_id = $user_id AND f.expired_at IS NOT NULL
  RETURN f.expired_at AS at, f.expired_at AS recorded, 'fact_closed' AS kind, f.id AS id,
         f.key + ' = ' + f.value AS text, null AS session_id
}
WITH at, recorded, kind, id, text, session_id
WHERE at IS NOT NULL AND ($start IS NULL OR at >= $start) AND ($end IS NULL OR at <= $end)
  AND ($known_at IS NULL OR coalesce(recorded, at) <= $known_at)
WITH at AS t, kind, id, text, session_id
RETURN {{packed_time(t, null)}} AS at, // ~1 µs to read, not ~60
       kind, id, text, session_id
ORDER BY t, kind, id
