// What an assembled context reads besides its recall's pool, in one round trip (graphmem.retrieval.context):
// the recall's hits, the readable tenants' current facts, the user's recent history and core memory blocks.
// - fetched: the memories $ids of the readable $tenants as memory_fetch reads them (fragments/fetched_memory),
//   derived at $now, the recall's clock.
// - facts: per key, the version valid at $as_of (default $now) as recorded by $known_at (default $now)
//   (fragments/fact_valid_to.cypher, as fact_at.cypher reads one key; both now: a plan not started yet leaves
//   the value it will replace), and the key's next plan as known then (next_value from next_from: a version
//   stated before it starts, valid somewhere, starting after $as_of, of another value than the one holding
//   then (a withdrawn plan's resumed value is none); the earliest), also for a key that holds no value yet.
//   Superseded, ended, retracted and conflicted versions never appear once they stopped holding. Each names
//   its tenant: graphmem.retrieval.context.narrowest keeps a key's narrowest scope. Most recently recorded
//   first. score: Neo4j's cosine, in [0, 1], of the query $embedding with the version's stored text vector
//   (fact_embedding_set; null without one, or without $embedding).
// - recent: the $k latest memories of the $personal tenants (session and user scope) by when they were said
//   (occurred_at: every memory graphmem writes has one, init() backfills older ones), at the read's times
//   (graphmem.model.timescope): happened by $as_of, recorded by $known_at, alive at $alive_at; newest first.
//   Read in the order of the index memory_user_occurred: the cost is the few read, not the tenant.
// - core: the current core memory blocks of $user_id (null: none), by label.
// - config: the stored automation configuration $config_id's JSON body (null: none stored), whose
//   context_budget is the budget of a context that names none.
// $ids, $tenants, $personal: lists of strings; $embedding: the query's vector or null; $now: datetime;
// $as_of, $known_at, $alive_at: datetimes or null (now); $k: integer; $user_id: string or null; $config_id: string
CALL () {
  UNWIND $ids AS id
  MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
  RETURN collect({{fetched_memory(m, $now)}}) AS fetched
}
CALL () {
  WITH coalesce($as_of, $now) AS as_of, coalesce($known_at, $now) AS known_at
  MATCH (f:Fact) WHERE f.user_id IN $tenants AND f.status <> 'conflicted' AND f.recorded_at <= known_at
    AND coalesce(as_of < {{fact_valid_to(f, known_at)}}, true)
    AND (f.valid_from <= as_of
         OR (f.planned_at IS NOT NULL AND coalesce({{fact_valid_to(f, known_at)}} > f.valid_from, true)))
  WITH as_of, f ORDER BY f.recorded_at DESC, f.valid_from DESC
  WITH as_of, f.user_id AS tenant, f.key AS key, coalesce(f.agent_id, '') AS agent, collect(f) AS versions
  WITH as_of, tenant, key, versions, [v IN versions WHERE v.valid_from <= as_of][0] AS f
  WITH tenant, key, f,
       reduce(n = null, p IN [v IN versions WHERE v.valid_from > as_of AND (f IS NULL OR v.value <> f.value)] |
         CASE WHEN n IS NULL OR p.valid_from < n.valid_from THEN p ELSE n END) AS next
  WITH tenant, key, f, next, coalesce(f, next) AS any
  ORDER BY any.recorded_at DESC, key
  RETURN collect({tenant: tenant, key: key, value: f.value, fact_type: any.fact_type,
                  recorded_at: {{packed_time(any.recorded_at, null)}}, next_value: next.value,
                  next_from: {{packed_time(next.valid_from, null)}}, id: f.id,
                  score: {{typed_cosine(f.embedding, $embedding)}}}) AS facts
}
CALL () {
  UNWIND $personal AS tenant
  CALL (tenant) { // each tenant's latest $k in the order of memory_user_occurred: no sort of the tenant
    MATCH (m:Memory) USING INDEX m:Memory(user_id, occurred_at) // the planner's own choice varied with statistics
    WHERE m.user_id = tenant AND m.occurred_at IS NOT NULL
      AND ($as_of IS NULL OR m.occurred_at <= $as_of)
      AND ($known_at IS NULL OR m.recorded_at <= $known_at)
      AND ($alive_at IS NULL OR ((m.expired_at IS NULL OR m.expired_at > $alive_at)
           AND (m.forgotten_at IS NULL OR m.forgotten_at > $alive_at)
           AND (m.superseded_at IS NULL OR m.superseded_at > $alive_at)))
      AND ($alive_at IS NOT NULL OR NOT m.status IN ['forgotten', 'superseded'])
    WITH m ORDER BY m.user_id DESC, m.occurred_at DESC // the index's order (its first key is fixed here)
    LIMIT $k
    RETURN m
  }
  WITH m ORDER BY m.occurred_at DESC
  LIMIT $k
  RETURN collect({__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}}) AS recent
}
CALL () {
  MATCH (m:CoreBlock) WHERE m.user_id = $user_id AND m.expired_at IS NULL
  WITH m ORDER BY m.core_label
  RETURN collect({__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}}) AS core
}
CALL () {
  OPTIONAL MATCH (c:AutomationConfig {id: $config_id})
  RETURN c.body AS config
}
RETURN fetched, facts, recent, core, config
