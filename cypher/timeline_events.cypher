// A user's history as dated events, oldest first (or newest first): memories (at their occurred time, i.e.
// valid time), memory updates and forgetting (engine events), fact values starting and stopping to hold (valid
// time: valid_from and the end as known by then, fragments/fact_valid_to; before round 57 they were dated when
// recorded, so history imported today showed every fact on the import's day); $known_at keeps only what had
// been recorded by then.
// Each kind is read in its time's order (ties by id, as the merge orders them) and cut at $limit before
// the merge: the memories (a tenant's bulk) in the order of memory_user_occurred and the forgotten ones in
// that of memory_user_forgotten, bounded by the window there (the planner's own choice varies with statistics, hence
// the hints; a hinted index that is missing or not yet online is a warning, and the read plans without it),
// so their part of a page or a window costs what it returns, not the tenant; a user's memory versions and
// facts (few beside the memories) are read whole and sorted. A memory's time is its occurred_at (every
// memory graphmem writes has one; init() backfills older ones).
// $user_id, $start (null: open), $end (null: open), $known_at (null: now), $limit (integer; all:
// graphmem.store.audit.ALL), $newest_first (boolean)
WITH coalesce($start, datetime('-9999-01-01T00:00:00Z')) AS low, // open bounds beyond any time graphmem
     coalesce($end, datetime('+99999-12-31T23:59:59Z')) AS high // reads (years 1-9999 at any offset)
CALL (low, high) {
  WITH $newest_first AS newest WHERE NOT newest
  MATCH (m:Memory) USING INDEX SEEK m:Memory(user_id, occurred_at)
  WHERE m.user_id = $user_id AND m.occurred_at >= low AND m.occurred_at <= high
    AND ($known_at IS NULL OR coalesce(m.recorded_at, m.occurred_at) <= $known_at)
  WITH m ORDER BY m.user_id, m.occurred_at, m.id LIMIT $limit
  RETURN m.occurred_at AS at, 'memory' AS kind, m.id AS id, m.content AS text, m.session_id AS session_id
  UNION ALL
  WITH $newest_first AS newest WHERE newest
  MATCH (m:Memory) USING INDEX SEEK m:Memory(user_id, occurred_at)
  WHERE m.user_id = $user_id AND m.occurred_at >= low AND m.occurred_at <= high
    AND ($known_at IS NULL OR coalesce(m.recorded_at, m.occurred_at) <= $known_at)
  WITH m ORDER BY m.user_id DESC, m.occurred_at DESC, m.id DESC LIMIT $limit
  RETURN m.occurred_at AS at, 'memory' AS kind, m.id AS id, m.content AS text, m.session_id AS session_id
  UNION ALL
  WITH $newest_first AS newest WHERE NOT newest
  MATCH (m:Memory) USING INDEX SEEK m:Memory(user_id, forgotten_at)
  WHERE m.user_id = $user_id AND m.forgotten_at >= low AND m.forgotten_at <= high
    AND ($known_at IS NULL OR m.forgotten_at <= $known_at)
  WITH m ORDER BY m.user_id, m.forgotten_at, m.id LIMIT $limit
  RETURN m.forgotten_at AS at, 'memory_forgotten' AS kind, m.id AS id, m.forgotten_reason AS text,
         m.session_id AS session_id
  UNION ALL
  WITH $newest_first AS newest WHERE newest
  MATCH (m:Memory) USING INDEX SEEK m:Memory(user_id, forgotten_at)
  WHERE m.user_id = $user_id AND m.forgotten_at >= low AND m.forgotten_at <= high
    AND ($known_at IS NULL OR m.forgotten_at <= $known_at)
  WITH m ORDER BY m.user_id DESC, m.forgotten_at DESC, m.id DESC LIMIT $limit
  RETURN m.forgotten_at AS at, 'memory_forgotten' AS kind, m.id AS id, m.forgotten_reason AS text,
         m.session_id AS session_id
  UNION ALL
  MATCH (v:MemoryVersion) WHERE v.user_id = $user_id AND v.expired_at >= low AND v.expired_at <= high
    AND ($known_at IS NULL OR v.expired_at <= $known_at)
  WITH v ORDER BY CASE WHEN $newest_first THEN v.expired_at END DESC,
           CASE WHEN $newest_first THEN v.memory_id END DESC,
           v.expired_at, v.memory_id
  LIMIT $limit
  RETURN v.expired_at AS at, 'memory_updated' AS kind, v.memory_id AS id, v.content AS text,
         null AS session_id
  UNION ALL // fact versions in valid time, as recorded by $known_at (fact_at's rule): a value starts to hold
  MATCH (f:Fact) WHERE f.user_id = $user_id AND f.status <> 'conflicted'
    AND f.recorded_at <= coalesce($known_at, datetime())
  WITH f, {{fact_valid_to(f, coalesce($known_at, datetime()))}} AS until
  WHERE coalesce(until > f.valid_from, true) // a record revoked or retracted by then held nowhere
    AND f.valid_from >= low AND f.valid_from <= high
  WITH f ORDER BY CASE WHEN $newest_first THEN f.valid_from END DESC,
           CASE WHEN $newest_first THEN f.id END DESC,
           f.valid_from, f.id
  LIMIT $limit
  RETURN f.valid_from AS at, 'fact_set' AS kind, f.id AS id, f.key + ' = ' + f.value AS text,
         null AS session_id
  UNION ALL // ... and stops holding (superseded, ended), as known by $known_at
  MATCH (f:Fact) WHERE f.user_id = $user_id AND f.status <> 'conflicted'
    AND f.recorded_at <= coalesce($known_at, datetime())
  WITH f, {{fact_valid_to(f, coalesce($known_at, datetime()))}} AS until
  WHERE until > f.valid_from AND until >= low AND until <= high
  WITH f, until ORDER BY CASE WHEN $newest_first THEN until END DESC,
           CASE WHEN $newest_first THEN f.id END DESC,
           until, f.id
  LIMIT $limit
  RETURN until AS at, 'fact_ended' AS kind, f.id AS id, f.key + ' = ' + f.value AS text,
         null AS session_id
}
WITH at AS t, kind, id, text, session_id
ORDER BY CASE WHEN $newest_first THEN t END DESC, CASE WHEN $newest_first THEN kind END DESC,
         CASE WHEN $newest_first THEN id END DESC, t, kind, id
LIMIT $limit
RETURN {{packed_time(t, null)}} AS at, // ~1 µs to read, not ~60
       kind, id, text, session_id
