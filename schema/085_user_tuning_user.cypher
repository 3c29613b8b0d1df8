// GDPR lookups and the per-user tuning history: every label holding user_id is found by index.
CREATE INDEX user_tuning_user IF NOT EXISTS FOR (n:UserTuning) ON (n.user_id)
