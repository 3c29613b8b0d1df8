// Relationships between the given nodes of a user that held at $as_of as recorded by $known_at (edges
// without bi-temporal fields count as valid from their creation on). A decaying weight (RELATED_TO) reads as
// derived at $as_of (cypher/fragments/edge_weight_now.cypher); date-times come packed (fragments/property_pairs).
// The start nodes come from the user_id index of each label snapshot_nodes reads (an unlabelled MATCH scanned
// every node of the store: 12 s for a 10,000-memory tenant, growing with the other tenants too).
// $user_id, $ids: node ids in the snapshot, $as_of, $known_at
CALL () {
  MATCH (a:Memory) WHERE a.user_id = $user_id RETURN a
  UNION MATCH (a:Entity) WHERE a.user_id = $user_id RETURN a
  UNION MATCH (a:Fact) WHERE a.user_id = $user_id RETURN a
}
WITH a WHERE coalesce(a.id, a.uid) IN $ids
MATCH (a)-[r]->(b)
WHERE b.user_id = $user_id AND coalesce(b.id, b.uid) IN $ids
  AND coalesce(r.recorded_at, r.at, $known_at) <= $known_at AND (r.expired_at IS NULL OR r.expired_at > $known_at)
  AND coalesce(r.valid_from, $as_of) <= $as_of AND (r.valid_to IS NULL OR r.valid_to > $as_of)
RETURN coalesce(a.id, a.uid) AS src, type(r) AS type, coalesce(b.id, b.uid) AS dst, CASE WHEN r.weight_rate IS NULL THEN {__properties__: {{property_pairs(r, [])}}}
       ELSE {__properties__: {{property_pairs(r, [])}}, weight: {{edge_weight_now(r, $as_of)}}} END AS props
ORDER BY src, type, dst
