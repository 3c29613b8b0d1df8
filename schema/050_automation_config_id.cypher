// One automation configuration per id (graphmem.automation.control): the single source of truth for jobs.
CREATE CONSTRAINT automation_config_id_unique IF NOT EXISTS FOR (c:AutomationConfig) REQUIRE c.id IS UNIQUE
