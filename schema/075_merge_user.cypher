// GDPR lookups (export_user, delete_user, anonymize_user): every label holding user_id is found by index.
CREATE INDEX merge_user IF NOT EXISTS FOR (n:Merge) ON (n.user_id)
