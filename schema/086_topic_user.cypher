// GDPR lookups and topic browsing: every label holding user_id is found by index.
CREATE INDEX topic_user IF NOT EXISTS FOR (n:Topic) ON (n.user_id)
