// Consolidate job: merge near-duplicates found among RELATED_TO neighbours (cosine >= threshold, same user and
// type). The older memory survives and takes the uses, the higher strength and importance and the list of
// merged ids; the newer one is kept as history (status superseded, MERGED_INTO the survivor). A memory a
// governance decision retained is never merged away (it may survive a merge).
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $batch: rows per transaction
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (b:Memory) WHERE b.user_id = $user_id RETURN b
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (b:Memory) RETURN b
}
WITH b WHERE b.status IN ['active', 'weak', 'dormant']
  AND NOT coalesce(b.retained, false)
  AND b.embedding IS NOT NULL AND b.embedding = b.embedding // no NaN: the cosine below would fail
  AND EXISTS { (b)-[:RELATED_TO]-(:Memory) }
CALL (b) {
  MATCH (b)-[:RELATED_TO]-(a:Memory)
  WHERE a.user_id = b.user_id AND b.status IN ['active', 'weak', 'dormant']
    AND a.status IN ['active', 'weak', 'dormant'] AND a.embedding IS NOT NULL AND a.embedding = a.embedding
    AND coalesce(a.memory_type, '') = coalesce(b.memory_type, '')
    AND (a.created_at < b.created_at OR (a.created_at = b.created_at AND a.id < b.id))
  WITH a, b, 2.0 * {{typed_cosine(a.embedding, b.embedding)}} - 1.0 AS sim // true cosine
  WHERE sim >= $p.duplicate_similarity
  WITH a, b, sim ORDER BY a.created_at, a.id LIMIT 1
  MERGE (b)-[d:MERGED_INTO]->(a)
  ON CREATE SET d.at = $now, d.similarity = sim, d.recorded_at = $now
  SET a.access_count = {{typed_count(a.access_count, 0)}} + {{typed_count(b.access_count, 0)}},
      a.strength = [x IN [[sa IN [{{strength_now(a, $now)}}] | [sb IN [{{strength_now(b, $now)}}] |
                   CASE WHEN sb > sa THEN sb ELSE sa END][0]][0]] | x][0],
      a.strength_updated_at = $now, a.decay_due = datetime({epochSeconds: 0}),
      a.importance = CASE WHEN coalesce(b.importance, 0.0) > coalesce(a.importance, 0.0)
                          THEN b.importance ELSE a.importance END,
      a.last_accessed_at = CASE WHEN b.last_accessed_at IS NOT NULL
                                 AND (a.last_accessed_at IS NULL OR b.last_accessed_at > a.last_accessed_at)
                                THEN b.last_accessed_at ELSE a.last_accessed_at END,
      a.merged_from = coalesce(a.merged_from, []) + b.id,
      a.version = {{typed_count(a.version, 1)}} + 1,
      b.status = 'superseded', b.merged_into = a.id, b.superseded_at = $now, b.status_changed_at = $now
  RETURN count(*) AS merged
} IN TRANSACTIONS OF $batch ROWS
RETURN coalesce(sum(merged), 0) AS merged
