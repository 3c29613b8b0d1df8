// Claim the FOLLOWS predecessor of each session's first new memory and move the tail pointers.
// The predecessor is the session's last memory, or for a new session the user's last memory
// (the last memory of the previous session). Runs in the same transaction as memory_create.
// $sessions: list of {uid, user_id, session_id, agent_id, first_id, last_id}
// $now: datetime
UNWIND $sessions AS s
MERGE (u:User {id: s.user_id})
  ON CREATE SET u.user_id = s.user_id, u.created_at = $now
MERGE (sess:Session {uid: s.uid})
  ON CREATE SET sess.user_id = s.user_id, sess.session_id = s.session_id, sess.agent_id = s.agent_id,
                sess.created_at = $now, sess.new = true
WITH s, u, sess, CASE WHEN sess.new THEN u.last_memory_id ELSE sess.last_memory_id END AS prev_id,
     coalesce(sess.new, false) AS is_new
REMOVE sess.new
SET sess.last_memory_id = s.last_id, sess.updated_at = $now,
    u.last_memory_id = s.last_id, u.last_session_uid = s.uid
RETURN s.uid AS uid, prev_id, is_new
