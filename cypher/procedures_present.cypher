// Which of the named procedures or functions the server has (plugin probes for the health check).
// $names: procedure or function names
SHOW PROCEDURES YIELD name
WHERE name IN $names
RETURN collect(name) AS names
