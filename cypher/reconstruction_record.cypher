// Record reconstructions returned by a recall (the memories themselves are never rewritten).
// Filed under the caller ($user_id: its principal, which holds the query), for memories of any tenant it read.
// $rows: list of {id, memory_id, text, sources, confidence}; $user_id: tenant; $tenants: readable keys;
// $query; $now: datetime
UNWIND $rows AS r
MATCH (m:Memory {id: r.memory_id}) WHERE m.user_id IN $tenants
CREATE (x:Reconstruction {id: r.id})
SET x.user_id = $user_id, x.memory_id = r.memory_id, x.text = r.text, x.sources = r.sources,
    x.confidence = r.confidence, x.query = $query, x.at = $now
CREATE (x)-[:RECONSTRUCTS]->(m)
RETURN count(x) AS recorded
