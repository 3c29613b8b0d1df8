// Formation's first read, one round trip (graphmem.formation.gather): the user's known entity keys, most
// mentioned first (the extractor recognises their lower-case and sentence-initial mentions); the session's last
// stored memory (the first draft's previous turn, with its vector for the first context key), or null; the
// tenant's memories counted up to $cap only (the neighbour plan's input, graphmem.formation.neighbours; $cap 0
// when no plan needs it).
// $user_id, $limit, $uid: the session's uid or null, $cap
CALL () {
  MATCH (e:Entity) WHERE e.user_id = $user_id
  WITH e ORDER BY e.mention_count DESC LIMIT $limit
  RETURN collect({key: e.key, id: e.id}) AS known
}
CALL () {
  OPTIONAL MATCH (s:Session {uid: $uid}) WHERE s.user_id = $user_id
  OPTIONAL MATCH (m:Memory {id: s.last_memory_id}) WHERE m.user_id = $user_id
  RETURN CASE WHEN m IS NOT NULL THEN {content: m.content, speaker: m.speaker, role: m.role, embedding: m.embedding}
              END AS last
}
CALL () {
  MATCH (m:Memory) WHERE m.user_id = $user_id
  WITH m LIMIT $cap
  RETURN count(m) AS n
}
RETURN known, last, n
