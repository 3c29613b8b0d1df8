// Mark the memories whose stated value of a fact key was superseded or ended, bi-temporally: the memory
// keeps everything it had; its statement stopped holding at `outdated_from` (valid time: the earliest
// such change) and the engine recorded that at `outdated_at` (transaction time); `outdated_keys` lists
// the keys. The memory stating the new value (if any, and another one) gets a SUPERSEDES edge to it.
// $outdated: list of {old: fact id closed, new: fact id or null, key, at: valid time of the change}
// $user_id, $now
UNWIND $outdated AS o
MATCH (old:Fact {id: o.old}) WHERE old.user_id = $user_id AND old.memory_id IS NOT NULL
MATCH (om:Memory {id: old.memory_id}) WHERE om.user_id = $user_id
OPTIONAL MATCH (new:Fact {id: o.new}) WHERE new.user_id = $user_id
OPTIONAL MATCH (nm:Memory {id: new.memory_id}) WHERE nm.user_id = $user_id AND nm <> om
SET om.outdated_from = CASE WHEN om.outdated_from IS NULL OR o.at < om.outdated_from THEN o.at
                            ELSE om.outdated_from END,
    om.outdated_at = coalesce(om.outdated_at, $now),
    om.outdated_keys = CASE WHEN o.key IN coalesce(om.outdated_keys, []) THEN om.outdated_keys
                            ELSE coalesce(om.outdated_keys, []) + o.key END
FOREACH (_ IN CASE WHEN nm IS NULL THEN [] ELSE [1] END |
  MERGE (nm)-[s:SUPERSEDES {key: o.key}]->(om)
  ON CREATE SET s.valid_from = o.at, s.recorded_at = $now, s.weight = 1.0, s.valid_to = null,
                s.expired_at = null)
RETURN count(om) AS outdated
