// Temporal view: FOLLOWS edges between consecutive memories (bi-temporal, never overwritten).
// $pairs: list of {src, dst, weight, kind} (valid from the later memory's occurred_at)
// $user_id: the tenant (both ends must belong to it)
// $now: datetime (recorded_at)
UNWIND $pairs AS p
MATCH (a:Memory {id: p.src}) WHERE a.user_id = $user_id
MATCH (b:Memory {id: p.dst}) WHERE b.user_id = $user_id
CREATE (a)-[:FOLLOWS {weight: p.weight, kind: p.kind, valid_from: b.occurred_at, valid_to: null,
                      recorded_at: $now, expired_at: null}]->(b)
RETURN count(*) AS created
