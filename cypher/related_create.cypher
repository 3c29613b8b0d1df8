// Semantic view: RELATED_TO edges from a new memory to similar memories of the same user; weight = cosine, the
// base its weight decays from (cypher/fragments/edge_weight_now.cypher) from now on; weight_due at the epoch:
// the next decay run stores its rate and when it falls below the pruning floor.
// $pairs: list of {src, dst, weight} (valid from the new memory's occurred_at: the edge holds since it happened)
// $user_id, $now
UNWIND $pairs AS p
MATCH (a:Memory {id: p.src}) WHERE a.user_id = $user_id
MATCH (b:Memory {id: p.dst}) WHERE b.user_id = $user_id
CREATE (a)-[:RELATED_TO {weight: p.weight, weight_base: p.weight, weight_updated_at: $now,
                         weight_due: datetime({epochSeconds: 0}), valid_from: a.occurred_at, valid_to: null,
                         recorded_at: $now, expired_at: null}]->(b)
SET a.decay_due = datetime({epochSeconds: 0}), b.decay_due = datetime({epochSeconds: 0}) // association is a decay input
RETURN count(*) AS created
