// A user's forgotten memories by when they were forgotten: the timeline's 'memory_forgotten' events read
// through it in time order, where they filtered every memory of the tenant. Only forgotten memories carry
// forgotten_at, so the index holds those alone.
CREATE INDEX memory_user_forgotten IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.forgotten_at)
