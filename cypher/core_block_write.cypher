// Write a new version of a core memory block: a P0 Memory that never decays; the previous version (if any)
// is closed (status superseded, expired_at) and kept as history behind a SUPERSEDES edge.
// $user_id, $label, $id: new memory id, $value, $embedding: list of floats, $props: map of scalar properties
// $expected_version: the version the caller read (0: none), $now: datetime
// Writing to the User node first serializes concurrent edits of one user; a moved version writes nothing.
MERGE (u:User {id: $user_id})
  ON CREATE SET u.user_id = $user_id, u.created_at = $now
SET u.core_edited_at = $now
WITH u
OPTIONAL MATCH (old:CoreBlock) WHERE old.user_id = $user_id AND old.core_label = $label AND old.expired_at IS NULL
// the version as graphmem.governance.core_blocks.block_from_row reads it (a version overwritten by hand with
// something other than a positive integer reads as 1, one above 2^40 as 2^40), so a `set` or an edit of
// such a block still succeeds and its next version never overflows
WITH old, CASE WHEN old IS NULL THEN 0
               WHEN old.version IS :: INTEGER AND old.version >= 1
               THEN CASE WHEN old.version < 1099511627776 THEN old.version ELSE 1099511627776 END ELSE 1 END AS found
WHERE found = $expected_version
CREATE (m:Memory:CoreBlock {id: $id})
SET m += $props, m.user_id = $user_id, m.core_label = $label, m.content = $value,
    m.recorded_at = $now, m.created_at = $now, m.occurred_at = $now, m.updated_at = $now,
    m.version = found + 1
WITH m, old
CALL db.create.setNodeVectorProperty(m, 'embedding', $embedding)
FOREACH (_ IN CASE WHEN old IS NULL THEN [] ELSE [1] END |
  SET old.status = 'superseded', old.expired_at = $now, old.valid_to = $now, old.status_changed_at = $now
  CREATE (m)-[:SUPERSEDES {valid_from: $now, recorded_at: $now}]->(old))
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS block
