// The properties a full-text index covers (schema migration: is search_text indexed yet?).
// $name
SHOW FULLTEXT INDEXES YIELD name, properties WHERE name = $name
RETURN properties
