// Whether a one-time data migration of init() has completed on this store (a Migration node per migration).
// $id: the migration's name
OPTIONAL MATCH (m:Migration {id: $id})
RETURN m IS NOT NULL AS done
