// Every version of one memory of a tenant, oldest first: the kept MemoryVersion nodes, then the memory.
// $user_id, $id
MATCH (m:Memory {id: $id}) WHERE m.user_id = $user_id
OPTIONAL MATCH (v:MemoryVersion)-[:VERSION_OF]->(m) WHERE v.user_id = $user_id // an edge never crosses tenants
WITH m, v ORDER BY v.version
WITH m, [x IN collect(v) | {__properties__: {{property_pairs(x, [])}}}] AS previous
RETURN previous, {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS current
