// The statement of a value that holds again (the version a withdrawn plan had closed: it continues from the
// plan's start, graphmem.model.fact_endings) is no longer outdated for that key: the key leaves
// `outdated_keys`, the SUPERSEDES edges that marked it for the key end in transaction time (`expired_at`),
// and with the last key the mark ends in transaction time at `reinstated_at` (an audit read known before then
// still sees it: graphmem.model.timescope.is_outdated). One row per memory, so a memory whose keys are
// reinstated together (two plans called off in one turn) loses them all.
// $reinstated: list of {fact: the resumed version's id or its predecessor's (the memory stating the value), key}
// $user_id, $now
UNWIND $reinstated AS r
MATCH (f:Fact {id: r.fact}) WHERE f.user_id = $user_id AND f.memory_id IS NOT NULL
MATCH (m:Memory {id: f.memory_id}) WHERE m.user_id = $user_id AND r.key IN coalesce(m.outdated_keys, [])
WITH m, collect(DISTINCT r.key) AS keys
CALL (m, keys) {
  MATCH (m)<-[s:SUPERSEDES]-(:Memory) WHERE s.key IN keys AND s.expired_at IS NULL
  SET s.expired_at = $now
  RETURN count(s) AS ended
}
WITH m, [k IN m.outdated_keys WHERE NOT k IN keys] AS left
SET m.outdated_keys = left,
    m.reinstated_at = CASE WHEN size(left) = 0 THEN $now ELSE m.reinstated_at END
RETURN count(m) AS reinstated
