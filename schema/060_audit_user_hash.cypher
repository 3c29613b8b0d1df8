// Audit lookups by user (the hash survives the user's deletion).
CREATE INDEX audit_user_hash IF NOT EXISTS FOR (a:AuditEvent) ON (a.user_hash)
