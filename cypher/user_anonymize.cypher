// GDPR anonymization: redact content and personal fields of a user's nodes and relationships, in batches;
// nodes, relationships, ids and counts stay (memory embeddings are then replaced by user_anonymize_embeddings;
// the user's IdempotencyKey nodes were deleted before, by user_anonymize_keys).
// Idempotent.
// $ids: element ids of the user's nodes (user_nodes), $redacted: the replacement text, $batch: rows per transaction
UNWIND $ids AS id
CALL (id) {
  MATCH (n) WHERE elementId(n) = id
  SET n.content = CASE WHEN n.content IS NULL THEN null ELSE $redacted END,
      n.value = CASE WHEN n.value IS NULL THEN null ELSE $redacted END,
      n.old_value = CASE WHEN n.old_value IS NULL THEN null ELSE $redacted END,
      n.new_value = CASE WHEN n.new_value IS NULL THEN null ELSE $redacted END,
      n.query = CASE WHEN n.query IS NULL THEN null ELSE $redacted END,
      n.name = CASE WHEN n.name IS NULL THEN null ELSE $redacted END,
      n.key = CASE WHEN n:Entity THEN n.id WHEN n:Fact OR n:Conflict THEN $redacted ELSE n.key END,
      n.aliases = CASE WHEN n.aliases IS NULL THEN null ELSE [] END,
      n.metadata = CASE WHEN n.metadata IS NULL THEN null ELSE '{}' END,
      n.tags = CASE WHEN n.tags IS NULL THEN null ELSE [] END,
      n.search_text = CASE WHEN n.search_text IS NULL THEN null ELSE $redacted END,
      n.asked = CASE WHEN n.asked IS NULL THEN null ELSE $redacted END,
      n.context_text = CASE WHEN n.context_text IS NULL THEN null ELSE $redacted END,
      n.context_embedding = null, n.speaker = null, n.embedding = CASE WHEN n:Memory THEN n.embedding ELSE null END, n.anonymized = true
  WITH n
  OPTIONAL MATCH (n)-[r:ENTITY]->()
  SET r.name = CASE WHEN r.name IS NULL THEN null ELSE $redacted END
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS anonymized
