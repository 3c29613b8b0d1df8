// The activation path behind a recall hit: the edges between consecutive ids of its explanation's path
// (hit.explanation.path), from the seed to the recalled memory.
// :param user_id => 'alice'
// :param path => ['<seed memory id>', '<next id>', '<recalled memory id>']
// Rows are readable maps: node properties with the label (embeddings left out), edge properties with the type
// (a RELATED_TO weight as derived now: cypher/fragments/edge_weight_now.cypher).
UNWIND range(0, size($path) - 2) AS i
MATCH (a {id: $path[i]})-[r]-(b {id: $path[i + 1]})
WHERE a.user_id = $user_id AND b.user_id = $user_id AND (a:Memory OR a:Entity) AND (b:Memory OR b:Entity)
RETURN i AS step, a {.*, label: labels(a)[0], embedding: null, context_embedding: null} AS a,
       CASE WHEN r.weight_rate IS NULL THEN r {.*, type: type(r)}
            ELSE r {.*, type: type(r), weight: {{edge_weight_now(r, datetime())}}} END AS r,
       b {.*, label: labels(b)[0], embedding: null, context_embedding: null} AS b
ORDER BY step
