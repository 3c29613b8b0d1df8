// Mark the memories whose stated value of a fact key was superseded or ended, bi-temporally: the memory
// keeps everything it had; its statement stopped holding at `outdated_from` (valid time: the earliest
// such change) and the engine recorded that at `outdated_at` (transaction time); `outdated_keys` lists
// the keys. The memory stating the change (the new value's, else `memory`: a plan called off) gets a
// SUPERSEDES edge to it. A memory whose mark was withdrawn (`reinstated_at`: fact_reinstate_memories) and
// is outdated again starts a new mark (the withdrawn one's times are not kept).
// $outdated: list of {old: fact id closed, new: fact id or null, key, at: valid time of the change,
//                     memory?: the memory stating the change when no new version does}
// $user_id, $now
UNWIND $outdated AS o
MATCH (old:Fact {id: o.old}) WHERE old.user_id = $user_id AND old.memory_id IS NOT NULL
MATCH (om:Memory {id: old.memory_id}) WHERE om.user_id = $user_id
OPTIONAL MATCH (new:Fact {id: o.new}) WHERE new.user_id = $user_id
OPTIONAL MATCH (nm:Memory {id: coalesce(new.memory_id, o.memory)}) WHERE nm.user_id = $user_id AND nm <> om
WITH o, om, nm, om.reinstated_at IS NOT NULL AS fresh
SET om.outdated_from = CASE WHEN fresh OR om.outdated_from IS NULL OR o.at < om.outdated_from THEN o.at
                            ELSE om.outdated_from END,
    om.outdated_at = CASE WHEN fresh THEN $now ELSE coalesce(om.outdated_at, $now) END,
    om.outdated_keys = CASE WHEN fresh THEN [o.key]
                            WHEN o.key IN coalesce(om.outdated_keys, []) THEN om.outdated_keys
                            ELSE coalesce(om.outdated_keys, []) + o.key END,
    om.reinstated_at = null
FOREACH (_ IN CASE WHEN nm IS NULL THEN [] ELSE [1] END |
  MERGE (nm)-[s:SUPERSEDES {key: o.key}]->(om)
  ON CREATE SET s.valid_from = o.at, s.recorded_at = $now, s.weight = 1.0, s.valid_to = null,
                s.expired_at = null)
RETURN count(om) AS outdated
