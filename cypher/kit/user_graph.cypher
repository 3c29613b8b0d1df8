// A user's memory graph: their memories and every edge between them or to entities and sessions.
// :param user_id => 'alice'
// :param limit => 300
// Rows are readable maps: node properties with the label (embeddings left out), edge properties with the type
// (a RELATED_TO weight as derived now: cypher/fragments/edge_weight_now.cypher).
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status <> 'forgotten'
WITH m ORDER BY m.created_at DESC LIMIT toInteger($limit)
OPTIONAL MATCH (m)-[r]->(x)
WHERE x.user_id = $user_id
RETURN m {.*, label: labels(m)[0], embedding: null, context_embedding: null} AS m,
       CASE WHEN r IS NULL THEN null WHEN r.weight_rate IS NULL THEN r {.*, type: type(r)}
            ELSE r {.*, type: type(r), weight: {{edge_weight_now(r, datetime())}}} END AS r,
       CASE WHEN x IS NULL THEN null ELSE x {.*, label: labels(x)[0], embedding: null, context_embedding: null} END AS x
