// Mark the memories whose stated value of a fact key was superseded or ended, bi-temporally: the memory
// keeps everything it had; its statement stopped holding at `outdated_from` (valid time: the earliest
// such change) and the engine recorded that at `outdated_at` (transaction time); `outdated_keys` lists
// the keys. The memory stating the change (the new value's, else `memory`: a plan called off) gets a
// SUPERSEDES edge to it. A memory whose mark was withdrawn (`reinstated_at`: fact_reinstate_memories) and
// is outdated again starts a new mark, once for all its rows; the withdrawn one's times are kept, in the lists
// withdrawn_from, withdrawn_at and withdrawn_until (its outdated_from, outdated_at and reinstated_at), so an
// audit read known while it held still sees it (graphmem.model.timescope.is_outdated).
// $outdated: list of {old: fact id closed, new: fact id or null, key, at: valid time of the change,
//                     memory?: the memory stating the change when no new version does}
// $user_id, $now
UNWIND $outdated AS o
MATCH (old:Fact {id: o.old}) WHERE old.user_id = $user_id AND old.memory_id IS NOT NULL
MATCH (om:Memory {id: old.memory_id}) WHERE om.user_id = $user_id
OPTIONAL MATCH (new:Fact {id: o.new}) WHERE new.user_id = $user_id
OPTIONAL MATCH (nm:Memory {id: coalesce(new.memory_id, o.memory)}) WHERE nm.user_id = $user_id AND nm <> om
WITH om, collect({o: o, nm: nm}) AS marks // one row per memory: two keys outdating it in one batch
WITH om, marks, om.reinstated_at IS NOT NULL AS fresh,
     all(t IN [om.outdated_from, om.outdated_at, om.reinstated_at] WHERE t IS :: ZONED DATETIME) AS kept
SET om.withdrawn_from = CASE WHEN fresh AND kept THEN coalesce(om.withdrawn_from, []) + om.outdated_from
                             ELSE om.withdrawn_from END,
    om.withdrawn_at = CASE WHEN fresh AND kept THEN coalesce(om.withdrawn_at, []) + om.outdated_at
                           ELSE om.withdrawn_at END,
    om.withdrawn_until = CASE WHEN fresh AND kept THEN coalesce(om.withdrawn_until, []) + om.reinstated_at
                              ELSE om.withdrawn_until END
SET om.outdated_from = reduce(since = CASE WHEN fresh THEN null ELSE om.outdated_from END, x IN marks |
                         CASE WHEN since IS NULL OR x.o.at < since THEN x.o.at ELSE since END),
    om.outdated_at = CASE WHEN fresh THEN $now ELSE coalesce(om.outdated_at, $now) END,
    om.outdated_keys = reduce(keys = CASE WHEN fresh THEN [] ELSE coalesce(om.outdated_keys, []) END,
                              x IN marks | CASE WHEN x.o.key IN keys THEN keys ELSE keys + x.o.key END),
    om.reinstated_at = null
WITH om, marks
UNWIND marks AS x
WITH om, x.o AS o, x.nm AS nm
FOREACH (_ IN CASE WHEN nm IS NULL THEN [] ELSE [1] END |
  MERGE (nm)-[s:SUPERSEDES {key: o.key}]->(om)
  ON CREATE SET s.valid_from = o.at, s.recorded_at = $now, s.weight = 1.0, s.valid_to = null,
                s.expired_at = null)
RETURN count(DISTINCT om) AS outdated
