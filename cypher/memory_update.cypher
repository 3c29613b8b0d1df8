// Update a locked memory: keep the previous version as a MemoryVersion node (VERSION_OF the memory),
// then overwrite the given fields (null: keep) and bump the version.
// $user_id, $id, $version_id, $content, $metadata (JSON text), $priority, $now
MATCH (m:Memory {id: $id}) WHERE m.user_id = $user_id
CREATE (v:MemoryVersion {id: $version_id})-[:VERSION_OF {recorded_at: $now}]->(m)
SET v.user_id = m.user_id, v.memory_id = m.id, v.version = m.version, v.content = m.content,
    v.metadata = m.metadata, v.priority = m.priority, v.recorded_at = coalesce(m.updated_at, m.recorded_at),
    v.expired_at = $now
SET m.content = coalesce($content, m.content), m.metadata = coalesce($metadata, m.metadata),
    m.priority = coalesce($priority, m.priority), m.version = {{typed_count(m.version, 1)}} + 1, m.updated_at = $now,
    m.decay_due = CASE WHEN $priority IS NULL THEN m.decay_due ELSE datetime({epochSeconds: 0}) END
// keys derived from the old content are dropped (search falls back to content and embedding)
FOREACH (_ IN CASE WHEN $content IS NULL THEN [] ELSE [1] END |
  SET m.search_text = null, m.context_text = null, m.context_embedding = null,
      m.event_start = null, m.event_end = null)
RETURN m.version AS version
