// Unique entity ids (an id is derived from user_id and the entity's normalized key).
CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE
