// The state of each (user_id, agent_id, key), read inside the writing transaction: its current version
// (id null: none), the end of its last known valid interval (floor: the latest valid_to of its non-conflicted
// versions valid somewhere, but for those the current version continues, back along SUPERSEDES: with a
// current version, the floor its line began over; one valid nowhere, retracted or a plan replaced before its
// start, has no interval to end) and its highest version number. The fact type is not part of the key:
// a key has one current value whatever type each version was written with. A current version that is a plan
// (planned_at set) names the version it replaces (replaced: the one it superseded, or, back through plans
// that held nowhere, withdrawn or replaced before their start, the one that held before them), whose
// statement a settled plan outdates, and that version's value when it held from when the plan was made until
// the plan's start (replaced_value: stated again before then, it leaves the plan; graphmem.model.facts.
// restates), and, when it was closed at the start of the plan that replaced it (and not revoked since: its
// value ended before), its fields (resumes: a plan called off continues it, graphmem.model.fact_endings). fields: the current version's own (COPIED).
// known: the key's versions valid somewhere as known now, each with its end as known now (null: open) and when
// it was recorded, those ending after k.since (the earliest valid_from the batch sets, or null: all) or open:
// a value dated before the current one's start is placed among them (graphmem.model.fact_history).
// Each owner's User node is written first (in a fixed order), as core_block_write does: a concurrent write of
// the same owner's facts waits here until this transaction ends, then reads what it committed (without it,
// two writers read the same current version and both superseded it: several current versions of one key).
// $keys: list of {user_id, agent_id, key, since: datetime or null}; $now: datetime
CALL () {
  UNWIND $keys AS lock
  WITH DISTINCT lock.user_id AS owner ORDER BY owner
  MERGE (u:User {id: owner})
    ON CREATE SET u.user_id = owner, u.created_at = $now
  SET u.facts_written_at = $now
  RETURN count(u) AS locked
}
UNWIND $keys AS k
OPTIONAL MATCH (f:Fact) WHERE f.user_id = k.user_id AND f.key = k.key
  AND coalesce(f.agent_id, '') = coalesce(k.agent_id, '')
WITH k, collect(f) AS versions
WITH k, versions, [v IN versions WHERE v.status = 'current' AND v.expired_at IS NULL][0] AS f
OPTIONAL CALL (f) { // back through plans that held nowhere (withdrawn, or replaced before their start)
  MATCH path = ANY SHORTEST (f) ((:Fact)-[:SUPERSEDES]->(x:Fact) WHERE {{plan_held_nowhere(x, false)}})*
                 (:Fact)-[:SUPERSEDES]->(p:Fact)
  WHERE f.planned_at IS NOT NULL AND p.user_id = f.user_id AND NOT {{plan_held_nowhere(p, false)}}
  WITH f, p, length(path) AS hops,
       coalesce(p.status = 'superseded' AND p.valid_to = nodes(path)[-2].valid_from AND p.revoked_at IS NULL,
                false) AS closed
  RETURN p.id AS replaced,
         CASE WHEN closed AND p.valid_from <= f.planned_at THEN p.value END AS replaced_value,
         CASE WHEN closed THEN p {.user_id, .agent_id, .key, .value, .fact_type, .source, .confidence,
                                   .memory_id, .valid_from} END AS resumes
  ORDER BY hops LIMIT 1
}
CALL (f) {
  OPTIONAL MATCH (f)-[:SUPERSEDES*0..]->(v:Fact) WHERE v.user_id = f.user_id
  RETURN collect(DISTINCT v) AS line
}
RETURN k.user_id AS user_id, k.agent_id AS agent_id, k.key AS key,
       f.id AS id, f.value AS value, f.valid_from AS valid_from, f.source AS source, f.version AS version,
       f.planned_at AS planned_at, replaced, replaced_value, resumes,
       f {.user_id, .agent_id, .key, .value, .fact_type, .source, .confidence, .memory_id, .valid_from}
         AS fields,
       reduce(m = null, v IN [x IN versions WHERE x.status <> 'conflicted' AND x.valid_to > x.valid_from
                                AND x.revoked_at IS NULL AND NOT x IN line] |
         CASE WHEN m IS NULL OR v.valid_to > m THEN v.valid_to ELSE m END) AS floor,
       reduce(m = 0, v IN versions | CASE WHEN v.version > m THEN v.version ELSE m END) AS last_version,
       [s IN [v IN versions WHERE v.status <> 'conflicted' |
                v {.id, .user_id, .agent_id, .key, .value, .fact_type, .source, .confidence, .memory_id,
                   .valid_from, .recorded_at, valid_to: {{fact_valid_to(v, $now)}}}]
          WHERE s.valid_to IS NULL OR (s.valid_to > s.valid_from AND coalesce(s.valid_to > k.since, true))]
         AS known
