// New fact versions (one node per version), linked to the memory they were extracted from, if any.
// $rows: list of {id, user_id, agent_id, key, value, fact_type, valid_from, valid_to?, status, source,
//                 confidence, memory_id, version, expire?, planned_at?: when a plan was stated}
// $now: datetime (recorded_at)
UNWIND $rows AS r
CREATE (f:Fact {id: r.id})
SET f.user_id = r.user_id, f.agent_id = r.agent_id, f.key = r.key, f.value = r.value,
    f.fact_type = r.fact_type, f.valid_from = r.valid_from, f.valid_to = r.valid_to, f.status = r.status,
    f.source = r.source, f.confidence = r.confidence, f.memory_id = r.memory_id, f.version = r.version,
    f.planned_at = r.planned_at,
    f.recorded_at = $now, f.expired_at = CASE WHEN coalesce(r.expire, false) THEN $now ELSE null END
WITH f, r
OPTIONAL MATCH (m:Memory {id: r.memory_id}) WHERE m.user_id = r.user_id
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END |
  CREATE (f)-[:DERIVED_FROM {recorded_at: $now}]->(m))
RETURN count(f) AS created
