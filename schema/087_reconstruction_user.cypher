// GDPR lookups: every label holding user_id is found by index (recorded reconstructions of recalls).
CREATE INDEX reconstruction_user IF NOT EXISTS FOR (n:Reconstruction) ON (n.user_id)
