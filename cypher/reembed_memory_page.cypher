// A page of memories (every user) with an embedding, in id order after a cursor, with the text to embed.
// A memory formation wrote before it stored its search keys (no search_text: graphmem before 2026-12-01,
// whose stores must be re-embedded anyway, their vectors being MiniLM's) comes with what formation builds them
// from (`bare`): when it was said, the names of its entities, and the previous turn of its session
// (content, speaker or role), so that the re-embedding also makes its keys (graphmem.store.embedding_space).
// Which memories those are: fragments/keyless_memory (`graphmem doctor` counts them by the same rule).
// $user_id: one tenant only (tests, repairs) or null for the whole store,
// $after: the last id of the previous page ('' at first), $limit: page size
MATCH (m:Memory)
WHERE m.id > $after AND m.embedding IS NOT NULL AND ($user_id IS NULL OR m.user_id = $user_id)
RETURN m.id AS id, m.content AS content, m.speaker AS speaker, m.role AS role, m.core_label AS core_label,
       m.context_text AS context_text,
       CASE WHEN {{keyless_memory(m, null)}} THEN {
         said: coalesce(m.occurred_at, m.created_at),
         entities: [(m)-[:ENTITY]->(e:Entity) WHERE e.user_id = m.user_id | e.name],
         previous: head([(p:Memory)-[:FOLLOWS]->(m) WHERE m.session_id IS NOT NULL AND p.session_id = m.session_id
                           AND p.user_id = m.user_id
                         | [p.content, coalesce(p.speaker, p.role)]])
       } END AS bare
ORDER BY m.id
LIMIT $limit
