// When a memory's status can next change (the decay job reads a tenant's due memories through it).
CREATE INDEX memory_user_decay_due IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.decay_due)
