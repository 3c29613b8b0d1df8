// One hop of spreading activation over the four views, inside one tenant. From each frontier memory,
// activation passes to neighbours: act × edge weight × view weight × hop decay. Through an Entity, the
// entity's fan damps it (ACT-R: (S − ln fan) / S); entities with fan ≥ $max_fan pass nothing and are not
// expanded. Edges and memories outside the query's time do not carry activation. Keeps the best path per
// target and returns the strongest $beam targets above $threshold.
// $frontier: list of {id, act}; $user_id; $weights: {RELATED_TO, FOLLOWS, CAUSES, ENTITY: view weights}
// $decay: per-hop decay; $threshold; $beam; $max_fan
// $as_of: datetime or null (valid time: memories that had happened by then, by occurred_at)
// $known_at: datetime or null (transaction time: recorded by then)
// $alive_at: the earlier of the two, or null (not yet forgotten, expired or merged away then)
// (edges: not ended by $as_of, recorded by $known_at, not expired at $alive_at; both ends in time)
UNWIND $frontier AS f
MATCH (src:Memory {id: f.id}) WHERE src.user_id = $user_id
CALL (src, f) {
  MATCH (src)-[r:RELATED_TO|FOLLOWS|CAUSES]-(n:Memory)
  WHERE $weights[type(r)] > 0
    AND ($known_at IS NULL OR r.recorded_at <= $known_at)
    AND ($alive_at IS NULL OR r.expired_at IS NULL OR r.expired_at > $alive_at)
    AND ($as_of IS NULL OR r.valid_to IS NULL OR r.valid_to > $as_of)
    AND ($alive_at IS NOT NULL OR r.expired_at IS NULL)
  RETURN n, type(r) AS via, null AS entity,
         f.act * coalesce(r.weight, 1.0) * $weights[type(r)] * $decay AS passed
  UNION ALL
  MATCH (src)-[r1:ENTITY]->(e:Entity)
  WHERE $weights['ENTITY'] > 0 AND ($alive_at IS NOT NULL OR r1.expired_at IS NULL)
  WITH e, r1, COUNT { (e)<-[:ENTITY]-() } AS fan
  WHERE fan < $max_fan
  MATCH (e)<-[r2:ENTITY]-(n:Memory)
  WHERE n <> src AND ($alive_at IS NOT NULL OR r2.expired_at IS NULL)
  RETURN n, 'ENTITY' AS via, e.id AS entity,
         f.act * coalesce(r1.weight, 1.0) * coalesce(r2.weight, 1.0) * $weights['ENTITY'] * $decay
         * (log($max_fan) - log(fan)) / log($max_fan) AS passed
}
WITH src, n, via, entity, passed
WHERE n.user_id = $user_id AND passed >= $threshold
  AND ($as_of IS NULL OR coalesce(n.occurred_at, n.created_at, n.recorded_at) <= $as_of)
  AND ($known_at IS NULL OR n.recorded_at <= $known_at)
  AND ($alive_at IS NULL OR ((n.expired_at IS NULL OR n.expired_at > $alive_at)
       AND (n.forgotten_at IS NULL OR n.forgotten_at > $alive_at)
       AND (n.superseded_at IS NULL OR n.superseded_at > $alive_at)))
  AND ($alive_at IS NOT NULL OR (n.expired_at IS NULL AND NOT n.status IN ['forgotten', 'superseded']))
WITH n, src, via, entity, passed ORDER BY passed DESC
WITH n, collect({src: src.id, via: via, entity: entity, passed: passed})[0] AS best
RETURN n.id AS id, best.src AS src, best.via AS via, best.entity AS entity, best.passed AS act
ORDER BY act DESC
LIMIT $beam
