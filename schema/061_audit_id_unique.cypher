// One audit event per id.
CREATE CONSTRAINT audit_id_unique IF NOT EXISTS FOR (a:AuditEvent) REQUIRE a.id IS UNIQUE
