// Synergy (graphmem.model.heuristics.co_recalled_weight): memories one recall returned together strengthen
// the RELATED_TO edges between them, w' = w + rate (1 - w), w being the weight derived at $now
// (cypher/fragments/edge_weight_now.cypher); the edge decays from there (new base and anchor; its rate kept;
// weight_due at the epoch: the next decay run computes when it falls below the pruning floor).
// $ids: the returned memory ids; $tenants (the tenant keys the read may see; only edges within one tenant); $now: datetime; $rate
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[r:RELATED_TO]->(b:Memory)
WHERE a.user_id IN $tenants AND b.user_id = a.user_id AND b.id IN $ids AND r.expired_at IS NULL
WITH a, b, r, coalesce({{edge_weight_now(r, $now)}}, 0.0) AS w
WITH a, b, r, CASE WHEN w > 1.0 THEN 1.0 WHEN w < 0.0 THEN 0.0 ELSE w END AS w
SET r.weight = w + $rate * (1.0 - w), r.weight_base = w + $rate * (1.0 - w), r.weight_updated_at = $now,
    r.weight_due = datetime({epochSeconds: 0}),
    a.decay_due = datetime({epochSeconds: 0}), b.decay_due = datetime({epochSeconds: 0}) // an edge's base weight is a decay input
RETURN count(r) AS strengthened
