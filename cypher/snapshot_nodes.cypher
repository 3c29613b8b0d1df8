// A user's nodes valid at $as_of as recorded by $known_at: memories said by then, not forgotten by then,
// not expired by $known_at; fact versions by the graphmem.temporal.reads rule; entities those memories mention.
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
    AND n.valid_from <= $as_of
    AND CASE WHEN n.expired_at IS NULL THEN n.valid_to IS NULL OR $as_of < n.valid_to
             WHEN $known_at < n.expired_at THEN true
             ELSE $as_of < coalesce(n.valid_to, n.valid_from) END
  RETURN n
}
RETURN coalesce(n.id, n.uid) AS id, labels(n)[0] AS label, n {.*, embedding: null, context_embedding: null} AS props
ORDER BY label, id
