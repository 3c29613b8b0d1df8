// Formation context: the session's last stored memory (the previous turn of the first new draft).
// $uid: the session's uid, $user_id
MATCH (s:Session {uid: $uid}) WHERE s.user_id = $user_id
MATCH (m:Memory {id: s.last_memory_id}) WHERE m.user_id = $user_id
RETURN m.content AS content, m.speaker AS speaker, m.role AS role
