// Unique sessions (uid is derived from user_id and session_id, see graphmem.formation.writer.session_uid).
CREATE CONSTRAINT session_uid_unique IF NOT EXISTS FOR (s:Session) REQUIRE s.uid IS UNIQUE
