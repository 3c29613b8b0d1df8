// Fact lookups by user and key.
CREATE INDEX fact_user_key IF NOT EXISTS FOR (f:Fact) ON (f.user_id, f.key)
