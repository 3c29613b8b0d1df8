// The server's Neo4j version ('5.26.30', '2026.01.4'): can its vector indexes filter (2026.01+)?
// No parameters.
CALL dbms.components() YIELD name, versions WHERE name = 'Neo4j Kernel'
RETURN versions[0] AS version
