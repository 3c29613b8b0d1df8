// GDPR anonymization: redact content and personal fields of a user's nodes and relationships, in batches;
// nodes, relationships, ids and counts stay (memory embeddings are then replaced by user_anonymize_embeddings;
// the user's IdempotencyKey nodes were deleted before, by user_anonymize_keys). A fact key names a person
// ('Emma/location'), so the keys a memory is outdated for and its SUPERSEDES edges' keys go like the facts'.
// Relationships holding words: ENTITY's name, SUPERSEDES's key, and the fact key and values consolidate copies
// onto a CONFLICTS_WITH between two memories (consolidate_detect_conflicts.cypher; graphmem since 30 November
// wrote them); a Topic's entity names and keywords are cleared (its next rebuild reads the redacted memories);
// a Reconstruction's text (a reading assembled from the user's memories) and a LangGraph store item's value and
// key (what the agent stored under it: the key becomes the item's id) go like content.
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
      n.entities = CASE WHEN n.entities IS NULL THEN null ELSE [] END,
      n.keywords = CASE WHEN n.keywords IS NULL THEN null ELSE [] END,
      n.outdated_keys = CASE WHEN n.outdated_keys IS NULL THEN null ELSE [k IN n.outdated_keys | $redacted] END,
      n.search_text = CASE WHEN n.search_text IS NULL THEN null ELSE $redacted END,
      n.asked = CASE WHEN n.asked IS NULL THEN null ELSE $redacted END,
      n.context_text = CASE WHEN n.context_text IS NULL THEN null ELSE $redacted END,
      n.text = CASE WHEN n.text IS NULL THEN null ELSE $redacted END,
      n.store_value = CASE WHEN n.store_value IS NULL THEN null ELSE '{}' END,
      n.store_key = CASE WHEN n.store_key IS NULL THEN null ELSE n.id END,
      n.context_embedding = null, n.speaker = null, n.embedding = CASE WHEN n:Memory THEN n.embedding ELSE null END, n.anonymized = true
  WITH n
  CALL (n) {
    OPTIONAL MATCH (n)-[r:ENTITY]->()
    SET r.name = CASE WHEN r.name IS NULL THEN null ELSE $redacted END
  }
  CALL (n) {
    OPTIONAL MATCH (n)-[s:SUPERSEDES]->()
    SET s.key = CASE WHEN s.key IS NULL THEN null ELSE $redacted END
  }
  CALL (n) {
    OPTIONAL MATCH (n)-[c:CONFLICTS_WITH]->()
    SET c.key = CASE WHEN c.key IS NULL THEN null ELSE $redacted END,
        c.old_value = CASE WHEN c.old_value IS NULL THEN null ELSE $redacted END,
        c.new_value = CASE WHEN c.new_value IS NULL THEN null ELSE $redacted END
  }
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS anonymized
