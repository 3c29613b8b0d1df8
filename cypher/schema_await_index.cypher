// Wait until an index is online (after a migration recreated it), up to $seconds.
// $name, $seconds
CALL db.awaitIndex($name, $seconds)
