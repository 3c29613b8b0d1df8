// Retire a vector index so that init() recreates it with the tenant filter property (run only when
// graphmem.store.migrations finds a server that can filter and an index that does not list user_id).
// $name
DROP INDEX $name IF EXISTS
