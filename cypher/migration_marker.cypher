// Migrations that rewrite data run once per store: this returns whether migration $id already ran, and
// records it as run when $mark.
// $id: migration name; $mark: boolean; $now: datetime
OPTIONAL MATCH (done:GraphmemMigration {id: $id})
WITH done IS NOT NULL AS ran
CALL (ran) {
  WITH ran WHERE $mark AND NOT ran
  CREATE (:GraphmemMigration {id: $id, at: $now})
}
RETURN ran
