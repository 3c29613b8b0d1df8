// One ApiKey per key id (the REST API looks a presented key up by its id; graphmem.adapters.auth).
CREATE CONSTRAINT api_key_id_unique IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE
