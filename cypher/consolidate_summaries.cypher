// Consolidate job (sleep-style): each topic's (graphmem.dynamics.topics; else each session's) old,
// unsummarised, low-priority (P2/P3) episodic memories (at least $p.summary_min_members) are compressed into
// one extractive summary memory (semantic, P1, long_term) whose embedding is the members' centroid and whose
// search text (full-text key) holds every member's search text, not only the extract's, so that what a source
// said stays findable by its own words; with SUMMARIZES edges to every member (and IN_TOPIC to the topic). The members are
// soft-forgotten (reason 'summarized') and never hard-deleted (forget_hard keeps them for audits and as_of).
// Retained memories are left alone. One cluster per transaction.
// $user_id: tenant, or null for all; $now: datetime; $p: DynamicsParams map; $max_chars: summary length cap;
// $dimension: the embedding space's
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.memory_type = 'episodic'
  AND m.status IN ['active', 'weak', 'dormant'] AND m.embedding IS NOT NULL
  AND {{typed_vector(m.embedding, $dimension)}} // the centroid needs every member's vector
  AND coalesce(m.priority, 'P2') IN ['P2', 'P3'] AND NOT coalesce(m.retained, false)
  AND coalesce(m.recorded_at, m.created_at) <= $now - duration({days: $p.summary_min_age_days})
  AND NOT EXISTS { (:Memory)-[:SUMMARIZES]->(m) }
WITH m, head([(m)-[:IN_TOPIC]->(t:Topic) | t]) AS topic
WITH m.user_id AS uid, topic, coalesce(topic.id, m.session_id) AS gid, collect(m) AS members
WHERE gid IS NOT NULL AND size(members) >= $p.summary_min_members
CALL (uid, topic, gid, members) {
  // another run of the job (a manual run beside the scheduled one) may have summarised these members since
  // they were read above: the tenant's User node is written first, so such runs take turns, and a cluster is
  // written only if each member is still live and unsummarised then (two runs at once summarised every
  // cluster twice)
  MERGE (turn:User {id: uid})
    ON CREATE SET turn.user_id = uid, turn.created_at = $now
  SET turn.consolidated_at = $now
  WITH uid, topic, gid, members
  WHERE all(x IN members WHERE x.status IN ['active', 'weak', 'dormant']
                           AND NOT EXISTS { (:Memory)-[:SUMMARIZES]->(x) })
  UNWIND members AS x
  WITH uid, topic, gid, members, x
  ORDER BY {{strength_now(x, $now)}} * coalesce(x.importance, 0.5) DESC, x.created_at
  WITH uid, topic, gid, members, collect(x)[..$p.summary_max_sentences] AS top
  UNWIND top AS t
  WITH uid, topic, gid, members, t ORDER BY t.occurred_at, t.created_at
  WITH uid, topic, gid, members, collect(t.content) AS parts, [x IN members | x.embedding] AS vectors,
       reduce(acc = '', x IN members | acc + CASE WHEN acc = '' THEN '' ELSE ' | ' END
                                           + coalesce(x.search_text, x.content)) AS keys
  WITH uid, topic, gid, members, keys,
       reduce(acc = '', s IN parts | acc + CASE WHEN acc = '' THEN '' ELSE ' | ' END + s) AS text,
       [i IN range(0, size(vectors[0]) - 1) | reduce(acc = 0.0, v IN vectors | acc + v[i]) / size(vectors)] AS centroid
  CREATE (s:Memory {id: randomUUID()})
  SET s.user_id = uid, s.session_id = CASE WHEN topic IS NULL THEN gid ELSE members[0].session_id END,
      s.user_key = members[0].user_key, s.agent_id = members[0].agent_id,
      s.content = left(CASE WHEN topic IS NULL THEN 'Summary of session ' + gid
                            ELSE 'Summary of topic ' + coalesce(topic.name, '') END + ': ' + text, $max_chars),
      s.memory_type = 'semantic', s.priority = 'P1', s.layer = 'long_term', s.status = 'active',
      s.source = 'inference', s.confidence = 1.0, s.tags = ['summary'],
      s.metadata = CASE WHEN topic IS NULL THEN '{"kind": "session_summary"}' ELSE '{"kind": "topic_summary"}' END,
      s.importance = reduce(acc = 0.0, x IN members | CASE WHEN coalesce(x.importance, 0.0) > acc THEN x.importance ELSE acc END),
      s.strength = 1.0, s.retention = 1.0, s.access_count = 0, s.version = 1, s.is_summary = true,
      s.summary_size = size(members), s.created_at = $now, s.recorded_at = $now, s.strength_updated_at = $now, s.decay_due = datetime({epochSeconds: 0}),
      s.occurred_at = reduce(acc = members[0].occurred_at, x IN members | CASE WHEN x.occurred_at < acc THEN x.occurred_at ELSE acc END)
  SET s.search_text = keys // every source's words stay findable in full text, not just the extract's
  WITH s, topic, members, centroid
  CALL db.create.setNodeVectorProperty(s, 'embedding', centroid)
  FOREACH (t IN CASE WHEN topic IS NULL THEN [] ELSE [topic] END | CREATE (s)-[:IN_TOPIC {recorded_at: $now}]->(t))
  WITH s, members
  UNWIND members AS x
  CREATE (s)-[:SUMMARIZES {weight: 1.0, recorded_at: $now, valid_from: x.occurred_at}]->(x)
  SET x.summarized_by = s.id, x.status_before_forgetting = x.status, x.status = 'forgotten',
      x.forgotten_at = $now, x.forgotten_reason = 'summarized', x.status_changed_at = $now
  RETURN count(x) AS members_summarized
} IN TRANSACTIONS OF 1 ROWS
RETURN count(CASE WHEN members_summarized > 0 THEN 1 END) AS summaries, // a skipped cluster counts 0 members
       coalesce(sum(members_summarized), 0) AS members_summarized
