// One Migration node per completed one-time data migration of init() (looked up by id at every init).
CREATE CONSTRAINT migration_id_unique IF NOT EXISTS FOR (m:Migration) REQUIRE m.id IS UNIQUE
