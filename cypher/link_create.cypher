// A caller-made edge between two memories of one user. $rel_type is checked against an allow-list in
// Python (graphmem.model.linking.LINK_TYPES) and again here. A RELATED_TO weight decays from $weight from now on
// (weight_base, weight_updated_at; weight_due at the epoch: the next decay run evaluates it).
// $src, $dst, $user_id, $rel_type, $weight, $valid_from, $now
MATCH (a:Memory {id: $src}) WHERE a.user_id = $user_id
MATCH (b:Memory {id: $dst}) WHERE b.user_id = $user_id
  AND $rel_type IN ['FOLLOWS', 'RELATED_TO', 'CAUSES', 'CONFLICTS_WITH']
CREATE (a)-[r:$($rel_type)]->(b)
SET r.weight = $weight, r.valid_from = $valid_from, r.valid_to = null, r.recorded_at = $now,
    r.expired_at = null, r.method = 'manual',
    r.weight_base = CASE WHEN $rel_type = 'RELATED_TO' THEN $weight END, // null: not set
    r.weight_updated_at = CASE WHEN $rel_type = 'RELATED_TO' THEN $now END,
    r.weight_due = CASE WHEN $rel_type = 'RELATED_TO' THEN datetime({epochSeconds: 0}) END,
    a.decay_due = CASE WHEN $rel_type = 'RELATED_TO' THEN datetime({epochSeconds: 0}) ELSE a.decay_due END, // association is a
    b.decay_due = CASE WHEN $rel_type = 'RELATED_TO' THEN datetime({epochSeconds: 0}) ELSE b.decay_due END  // decay input
RETURN count(r) AS created
