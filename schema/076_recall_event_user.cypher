// GDPR lookups (export_user, delete_user, anonymize_user): every label holding user_id is found by index.
CREATE INDEX recall_event_user IF NOT EXISTS FOR (n:RecallEvent) ON (n.user_id)
