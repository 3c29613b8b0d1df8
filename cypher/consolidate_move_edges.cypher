// Consolidate job: a memory merged into a survivor (MERGED_INTO) hands its ENTITY, FOLLOWS, RELATED_TO, CAUSES
// and IN_SESSION edges to the survivor, so no view edge hangs on the inactive copy: each edge is recreated on
// the survivor with the same type, direction and properties (merged with an equal edge already there, keeping
// the higher weight; `moved_from` names the merged memory) and removed from the merged one. RELATED_TO weights
// compare as derived at $now (cypher/fragments/edge_weight_now.cypher); a higher moved one re-anchors the
// edge there (weight_due at the epoch: the next decay run evaluates it). Edges between the two are dropped;
// an edge made by hand into another tenant stays where it is (nothing of that tenant is written).
// Provenance stays in MERGED_INTO and both memories' histories. Idempotent.
// $user_id: tenant, or null for all; $now: datetime; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (b:Memory) WHERE b.user_id = $user_id RETURN b
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (b:Memory) RETURN b
}
MATCH (b)-[:MERGED_INTO]->(a:Memory)
WHERE b.status = 'superseded' AND a.user_id = b.user_id
  AND EXISTS { (b)-[:ENTITY|FOLLOWS|RELATED_TO|CAUSES|IN_SESSION]-(x) WHERE x.user_id = b.user_id }
CALL (a, b) {
  MATCH (b)-[r:ENTITY|FOLLOWS|RELATED_TO|CAUSES|IN_SESSION]-(x) WHERE x.user_id = b.user_id
  WITH a, b, r, x, startNode(r) = b AS outgoing, type(r) AS kind, properties(r) AS props
  CALL (a, b, x, outgoing, kind, props) {
    WITH a, b, x, kind, props WHERE x <> a AND kind = 'RELATED_TO' // undirected: either direction is the same edge
    MERGE (a)-[n:RELATED_TO]-(x)
    ON CREATE SET n = props, n.moved_from = b.id, n.moved_at = $now
    ON MATCH SET n += [w IN [coalesce({{edge_weight_now(props, $now)}}, 0.0)] |
                       CASE WHEN w > coalesce({{edge_weight_now(n, $now)}}, 0.0)
                            THEN {weight: w, weight_base: w, weight_updated_at: $now, weight_due: datetime({epochSeconds: 0})}
                            ELSE {} END][0]
    UNION
    WITH a, b, x, kind, props WHERE x <> a AND kind <> 'RELATED_TO' AND outgoing
    MERGE (a)-[n:$(kind)]->(x)
    ON CREATE SET n = props, n.moved_from = b.id, n.moved_at = $now
    ON MATCH SET n.weight = CASE WHEN coalesce(props.weight, 0.0) > coalesce(n.weight, 0.0)
                                 THEN props.weight ELSE n.weight END
    UNION
    WITH a, b, x, kind, props WHERE x <> a AND kind <> 'RELATED_TO' AND NOT outgoing
    MERGE (x)-[n:$(kind)]->(a)
    ON CREATE SET n = props, n.moved_from = b.id, n.moved_at = $now
    ON MATCH SET n.weight = CASE WHEN coalesce(props.weight, 0.0) > coalesce(n.weight, 0.0)
                                 THEN props.weight ELSE n.weight END
  }
  FOREACH (_ IN CASE WHEN kind = 'RELATED_TO' THEN [1] ELSE [] END | // x's associations changed
    SET x.decay_due = datetime({epochSeconds: 0}))
  DELETE r
  RETURN count(r) AS moved
} IN TRANSACTIONS OF $batch ROWS
RETURN coalesce(sum(moved), 0) AS edges_moved
