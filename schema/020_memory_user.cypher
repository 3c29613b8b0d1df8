// Tenant lookups: every recall is scoped to one user_id.
CREATE INDEX memory_user IF NOT EXISTS FOR (m:Memory) ON (m.user_id)
