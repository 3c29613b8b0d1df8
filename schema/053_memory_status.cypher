// Maintenance jobs over all tenants select memories by status.
CREATE INDEX memory_status IF NOT EXISTS FOR (m:Memory) ON (m.status)
