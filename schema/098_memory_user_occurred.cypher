// A user's memories by when they were said (valid time): the recent history of a context and the first
// pages of memories.list read the latest few through it in index order (ORDER BY m.user_id DESC,
// m.occurred_at DESC), where they sorted the whole tenant. Every memory graphmem writes has an occurred_at;
// init() backfills older ones (memory_occurred_backfill).
CREATE INDEX memory_user_occurred IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.occurred_at)
