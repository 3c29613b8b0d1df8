// A user's history as dated events, oldest first: memories (at their occurred time), memory updates and
// forgetting, fact versions recorded and closed.
// $user_id, $start (null: open), $end (null: open)
CALL () {
  MATCH (m:Memory) WHERE m.user_id = $user_id
  RETURN coalesce(m.occurred_at, m.created_at) AS at, 'memory' AS kind, m.id AS id, m.content AS text,
         m.session_id AS session_id
  UNION ALL
  MATCH (m:Memory) WHERE m.user_id = $user_id AND m.forgotten_at IS NOT NULL
  RETURN m.forgotten_at AS at, 'memory_forgotten' AS kind, m.id AS id, m.forgotten_reason AS text,
         m.session_id AS session_id
  UNION ALL
  MATCH (v:MemoryVersion) WHERE v.user_id = $user_id
  RETURN v.expired_at AS at, 'memory_updated' AS kind, v.memory_id AS id, v.content AS text, null AS session_id
  UNION ALL
  MATCH (f:Fact) WHERE f.user_id = $user_id
  RETURN f.recorded_at AS at, 'fact_recorded' AS kind, f.id AS id, f.key + ' = ' + f.value AS text,
         null AS session_id
  UNION ALL
  MATCH (f:Fact) WHERE f.user_id = $user_id AND f.expired_at IS NOT NULL
  RETURN f.expired_at AS at, 'fact_closed' AS kind, f.id AS id, f.key + ' = ' + f.value AS text,
         null AS session_id
}
WITH at, kind, id, text, session_id
WHERE at IS NOT NULL AND ($start IS NULL OR at >= $start) AND ($end IS NULL OR at <= $end)
RETURN at, kind, id, text, session_id
ORDER BY at, kind, id
