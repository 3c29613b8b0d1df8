// A user's nodes valid at $as_of as recorded by $known_at: memories said by then, not forgotten by then,
// not expired by $known_at; per fact key (and agent) the version fact_at.cypher reads (the latest recorded of
// those valid then, as recorded then: fragments/fact_valid_to); entities those memories mention.
// $user_id, $as_of, $known_at
CALL () {
  MATCH (m:Memory)
  WHERE m.user_id = $user_id AND m.recorded_at <= $known_at AND coalesce(m.occurred_at, m.created_at) <= $as_of
    AND (m.forgotten_at IS NULL OR m.forgotten_at > $as_of) AND (m.expired_at IS NULL OR m.expired_at > $known_at)
  RETURN m AS n
  UNION
  MATCH (m:Memory)-[r:ENTITY]->(n:Entity)
  WHERE m.user_id = $user_id AND n.user_id = $user_id AND m.recorded_at <= $known_at
    AND coalesce(m.occurred_at, m.created_at) <= $as_of
    AND (m.forgotten_at IS NULL OR m.forgotten_at > $as_of) AND (m.expired_at IS NULL OR m.expired_at > $known_at)
  RETURN n
  UNION
  MATCH (n:Fact)
  WHERE n.user_id = $user_id AND n.status <> 'conflicted' AND n.recorded_at <= $known_at
    AND n.valid_from <= $as_of AND coalesce($as_of < {{fact_valid_to(n, $known_at)}}, true)
  WITH n ORDER BY n.recorded_at DESC, n.valid_from DESC // two hold where a value replaced a plan early
  WITH n.key AS key, coalesce(n.agent_id, '') AS agent, collect(n)[0] AS n
  RETURN n
}
RETURN coalesce(n.id, n.uid) AS id, labels(n)[0] AS label, {__properties__: {{property_pairs(n, ['embedding', 'context_embedding'])}}} AS props
ORDER BY label, id
