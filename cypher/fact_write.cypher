// A batch of fact changes in one statement, one round trip (graphmem.temporal.facts; before round 47 up to six
// statements): new versions, closed ones, the history edges between them, the statements of values that hold
// again (reinstated) and of values that stopped holding (outdated), and the audit records, in this order (a
// batch's own marks come after what it reinstates: graphmem.model.fact_endings). Each part is a subquery over
// its own list that returns one aggregate row whatever the list holds (a part that could return no row would
// skip every part after it); an empty list writes nothing.
// $user_id: the tenant; $now: datetime (transaction time)
// $plan: the lists, in one map (graphmem.store.values.list_map says why):
//   create: [{id, user_id, agent_id, key, value, fact_type, valid_from, valid_to, status, source, confidence,
//             memory_id, version, expire, planned_at?: when a plan was stated}]
//   closes: [{id, valid_to, status: 'superseded' | 'ended'} or {id, revoke: true}]
//   supersedes, conflicts: [{src, dst, valid_from}]
//   reinstated: [{fact: the resumed version's id or its predecessor's (the memory stating the value), key}]
//   outdated: [{old: fact id closed, new: fact id or null, key, at: valid time of the change,
//               memory?: the memory stating the change when no new version does}]
//   audit: [{id, user_id, key, fact_type, resolution, reason, old_id, new_id, old_value, new_value}]
CALL () {
  // New versions (one node per version), linked to the memory they were extracted from, if any.
  UNWIND $plan.create AS r
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
}
CALL () {
  // Versions superseded or ended: valid time ends at the new version's valid_from (or the ending statement's
  // time), transaction time now. A revoked version (its record replaced by a later one with another end,
  // graphmem.model.facts) keeps everything and no longer holds from now (`revoked_at`, fragments/fact_valid_to).
  UNWIND $plan.closes AS c
  MATCH (f:Fact {id: c.id}) WHERE f.user_id = $user_id
  SET f += CASE WHEN c.revoke THEN {revoked_at: coalesce(f.revoked_at, $now)}
                ELSE {valid_to: c.valid_to, expired_at: $now, status: coalesce(c.status, 'superseded')} END
  RETURN count(f) AS closed
}
CALL () {
  // History: SUPERSEDES (new -> old).
  UNWIND $plan.supersedes AS p
  MATCH (a:Fact {id: p.src}) WHERE a.user_id = $user_id
  MATCH (b:Fact {id: p.dst}) WHERE b.user_id = $user_id
  CREATE (a)-[:SUPERSEDES {weight: 1.0, valid_from: p.valid_from, valid_to: null, recorded_at: $now,
                           expired_at: null}]->(b)
  RETURN count(*) AS superseded
}
CALL () {
  // History: CONFLICTS_WITH (a contradiction kept).
  UNWIND $plan.conflicts AS p
  MATCH (a:Fact {id: p.src}) WHERE a.user_id = $user_id
  MATCH (b:Fact {id: p.dst}) WHERE b.user_id = $user_id
  CREATE (a)-[:CONFLICTS_WITH {weight: 1.0, valid_from: p.valid_from, valid_to: null, recorded_at: $now,
                               expired_at: null}]->(b)
  RETURN count(*) AS conflicting
}
CALL () {
  // The statement of a value that holds again (the version a withdrawn plan had closed: it continues from the
  // plan's start, graphmem.model.fact_endings) is no longer outdated for that key: the key leaves
  // `outdated_keys`, the SUPERSEDES edges that marked it for the key end in transaction time (`expired_at`),
  // and with the last key the mark ends in transaction time at `reinstated_at` (an audit read known before
  // then still sees it: graphmem.model.timescope.is_outdated). One row per memory, so a memory whose keys are
  // reinstated together (two plans called off in one turn) loses them all.
  UNWIND $plan.reinstated AS r
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
}
CALL () {
  // The memories whose stated value of a key was superseded or ended, marked bi-temporally: the memory keeps
  // everything it had; its statement stopped holding at `outdated_from` (valid time: the earliest such change)
  // and the engine recorded that at `outdated_at` (transaction time); `outdated_keys` lists the keys. The
  // memory stating the change (the new value's, else `memory`: a plan called off) gets a SUPERSEDES edge to it.
  // A memory whose mark was withdrawn (`reinstated_at`) and is outdated again starts a new mark, once for all
  // its rows; the withdrawn one's times are kept, in the lists withdrawn_from, withdrawn_at and withdrawn_until
  // (its outdated_from, outdated_at and reinstated_at), so an audit read known while it held still sees it.
  UNWIND $plan.outdated AS o
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
}
CALL () {
  // Each classification (new, merge, keep_both, supersede, backfill) as a Conflict node for audits; a merge also
  // confirms the current version.
  UNWIND $plan.audit AS a
  CREATE (c:Conflict {id: a.id, user_id: a.user_id, key: a.key, fact_type: a.fact_type,
                      resolution: a.resolution, reason: a.reason, old_value: a.old_value,
                      new_value: a.new_value, recorded_at: $now})
  WITH c, a
  OPTIONAL MATCH (new:Fact {id: a.new_id}) WHERE new.user_id = a.user_id
  OPTIONAL MATCH (old:Fact {id: a.old_id}) WHERE old.user_id = a.user_id
  FOREACH (_ IN CASE WHEN new IS NULL THEN [] ELSE [1] END | CREATE (c)-[:ABOUT {role: 'new'}]->(new))
  FOREACH (_ IN CASE WHEN old IS NULL THEN [] ELSE [1] END | CREATE (c)-[:ABOUT {role: 'old'}]->(old))
  FOREACH (_ IN CASE WHEN a.resolution = 'merge' AND old IS NOT NULL THEN [1] ELSE [] END |
    SET old.confirmations = {{typed_count(old.confirmations, 0)}} + 1, old.last_confirmed_at = $now)
  RETURN count(c) AS recorded
}
RETURN created, closed, superseded, conflicting, reinstated, outdated, recorded
