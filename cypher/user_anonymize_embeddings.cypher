// After an anonymization: every memory of the user gets the embedding of the redacted text, in batches, so
// vector search keeps working and no vector of the original content remains.
// $user_id, $embedding: list of floats, $batch: rows per transaction
MATCH (m:Memory) WHERE m.user_id = $user_id
CALL (m) {
  CALL db.create.setNodeVectorProperty(m, 'embedding', $embedding)
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS reembedded
