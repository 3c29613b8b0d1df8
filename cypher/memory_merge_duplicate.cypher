// A near-duplicate reinforces the existing memory (one more access, strength up to 4) instead of a new node;
// the merge is recorded as a Merge node (what was said, when, how similar) pointing at the memory.
// $merges: list of {i, id, merge_id, content, similarity, occurred_at, metadata}
// $user_id, $now
UNWIND $merges AS d
MATCH (m:Memory {id: d.id}) WHERE m.user_id = $user_id
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $now,
    m.strength = CASE WHEN coalesce(m.strength, 1.0) + 1.0 > 4.0 THEN 4.0 ELSE coalesce(m.strength, 1.0) + 1.0 END,
    m.merge_count = coalesce(m.merge_count, 0) + 1
CREATE (r:Merge {id: d.merge_id, user_id: $user_id, content: d.content, similarity: d.similarity,
                 occurred_at: d.occurred_at, metadata: d.metadata, recorded_at: $now})-[:MERGED_INTO {
                 weight: d.similarity, valid_from: d.occurred_at, valid_to: null, recorded_at: $now,
                 expired_at: null}]->(m)
RETURN d.i AS i, m {.*, embedding: null, context_embedding: null} AS memory
