// A caller-made edge between two memories of one user. $rel_type is checked against an allow-list in
// Python (graphmem.model.linking.LINK_TYPES) and again here. A live edge of that type between the two
// (undirected for RELATED_TO and CONFLICTS_WITH, from $src to $dst for FOLLOWS and CAUSES; made by formation,
// associate or an earlier link) is reweighted rather than doubled: it keeps its valid_from (the $valid_from
// of a reweight is not used) and who made it.
// Both memories are written first (linked_at), so two links of one pair take turns and the second finds the
// first's edge (each created its own before: parallel edges, which the graph expansion counted twice).
// A RELATED_TO weight decays from $weight from now on (weight_base, weight_updated_at; weight_due at the
// epoch: the next decay run evaluates it).
// $src, $dst, $user_id, $rel_type, $weight, $valid_from, $now
MATCH (a:Memory {id: $src}) WHERE a.user_id = $user_id
MATCH (b:Memory {id: $dst}) WHERE b.user_id = $user_id
  AND $rel_type IN ['FOLLOWS', 'RELATED_TO', 'CONFLICTS_WITH', 'CAUSES']
FOREACH (n IN CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END | SET n.linked_at = $now) // in id order
WITH a, b
OPTIONAL MATCH (a)-[old]-(b)
WHERE type(old) = $rel_type AND old.expired_at IS NULL AND old.valid_to IS NULL
  AND (startNode(old) = a OR $rel_type IN ['RELATED_TO', 'CONFLICTS_WITH'])
  AND old.resolved_at IS NULL // a conflict consolidate settled is history: linking the pair again opens one
WITH a, b, head(collect(old)) AS old
CALL (a, b, old) {
  WITH a, b, old WHERE old IS NULL
  CREATE (a)-[r:$($rel_type)]->(b)
  SET r.valid_from = $valid_from, r.valid_to = null, r.recorded_at = $now, r.expired_at = null,
      r.method = 'manual'
  RETURN r
  UNION
  WITH old WHERE old IS NOT NULL
  RETURN old AS r
}
SET r.weight = $weight,
    r.weight_base = CASE WHEN $rel_type = 'RELATED_TO' THEN $weight END, // null: not set
    r.weight_updated_at = CASE WHEN $rel_type = 'RELATED_TO' THEN $now END,
    r.weight_due = CASE WHEN $rel_type = 'RELATED_TO' THEN datetime({epochSeconds: 0}) END,
    a.decay_due = CASE WHEN $rel_type = 'RELATED_TO' THEN datetime({epochSeconds: 0}) ELSE a.decay_due END, // association is a
    b.decay_due = CASE WHEN $rel_type = 'RELATED_TO' THEN datetime({epochSeconds: 0}) ELSE b.decay_due END  // decay input
RETURN count(r) AS linked // made or reweighted
