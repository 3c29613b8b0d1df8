// A user's memories by time (timelines, recency, proactive preload).
CREATE INDEX memory_user_created IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.created_at)
