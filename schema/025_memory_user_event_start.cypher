// A tenant's memories by the date range their words refer to (event_start, resolved at formation from
// "yesterday", "last week", "in June", ...): range seeks on (user_id, event_start).
CREATE INDEX memory_user_event_start IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.event_start)
