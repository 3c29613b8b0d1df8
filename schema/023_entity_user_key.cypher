// Entity resolution looks entities up by user and normalized key.
CREATE INDEX entity_user_key IF NOT EXISTS FOR (e:Entity) ON (e.user_id, e.key)
