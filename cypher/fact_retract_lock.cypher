// Lock the current version of a user's fact key for a retraction (the most recently recorded one; a plan
// is the current version here, started or not); the filter after the lock sees a concurrent retraction that
// committed first. For a plan, also the version it replaces when closed at the start of the plan that
// replaced it (resumed, back through plans that held nowhere as fact_current.cypher reads it: a plain
// retraction of the plan continues that value from the plan's start, graphmem.model.facts.plan_retraction).
// No row: nothing to retract. last_version: the key's highest version number.
// The owner's User node is written first, as fact_current does for a write of a value: a retraction and a new
// value of one key take turns (else the value's write closed the version this retraction had just closed).
// $user_id, $key, $agent_id (null: any agent), $now
MERGE (owner:User {id: $user_id})
  ON CREATE SET owner.user_id = $user_id, owner.created_at = $now
SET owner.facts_written_at = $now
WITH owner
MATCH (f:Fact) WHERE f.user_id = $user_id AND f.key = $key AND f.status = 'current' AND f.expired_at IS NULL
  AND ($agent_id IS NULL OR f.agent_id = $agent_id)
WITH f ORDER BY f.recorded_at DESC LIMIT 1
SET f.locked_at = $now
WITH f WHERE f.status = 'current' AND f.expired_at IS NULL
OPTIONAL CALL (f) { // back through plans that held nowhere, as fact_current.cypher reads `resumes`
  MATCH path = ANY SHORTEST (f) ((:Fact)-[:SUPERSEDES]->(x:Fact) WHERE {{plan_held_nowhere(x, false)}})*
                 (:Fact)-[:SUPERSEDES]->(p:Fact)
  WHERE f.planned_at IS NOT NULL AND p.user_id = f.user_id AND NOT {{plan_held_nowhere(p, false)}}
  WITH p, length(path) AS hops
  WHERE coalesce(p.status = 'superseded' AND p.valid_to = nodes(path)[-2].valid_from AND p.revoked_at IS NULL,
                false)
  RETURN {__properties__: {{property_pairs(p, ['embedding'])}}} AS resumed ORDER BY hops LIMIT 1
}
CALL (f) { // the key's highest version number (conflicts too): a recorded version is numbered after it
  MATCH (v:Fact) WHERE v.user_id = f.user_id AND v.key = f.key AND coalesce(v.agent_id, '') = coalesce(f.agent_id, '')
  RETURN max(CASE WHEN v.version IS :: INTEGER | FLOAT THEN v.version END) AS last_version
}
RETURN {__properties__: {{property_pairs(f, ['embedding'])}}} AS fact, resumed, last_version
