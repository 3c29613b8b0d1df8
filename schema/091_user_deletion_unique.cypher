// One pending-deletion record per user hash (delete_user: the counts a rerun's tombstone reports).
CREATE CONSTRAINT user_deletion_unique IF NOT EXISTS FOR (d:UserDeletion) REQUIRE d.user_hash IS UNIQUE
