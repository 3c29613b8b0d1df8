// The options of a vector index (to compare its dimension with the embedder's).
// $name
SHOW VECTOR INDEXES YIELD name, options, state WHERE name = $name
RETURN options, state
