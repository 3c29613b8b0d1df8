// GDPR lookups (export_user, delete_user, anonymize_user): every label holding user_id is found by index.
CREATE INDEX idempotency_key_user IF NOT EXISTS FOR (n:IdempotencyKey) ON (n.user_id)
