// GDPR lookups (export_user, delete_user, anonymize_user): every label holding user_id is found by index.
CREATE INDEX fact_user IF NOT EXISTS FOR (n:Fact) ON (n.user_id)
