// Retract a locked current fact version: its transaction time closes now (status retracted, valid_to kept
// null: as recorded from now on it held nowhere); the ended version a retraction with a valid_to records is
// created by fact_write and linked to it here with SUPERSEDES.
// $user_id, $id: the retracted version, $ended_id: the ended version's id or null, $now
MATCH (f:Fact {id: $id}) WHERE f.user_id = $user_id
SET f.expired_at = $now, f.status = 'retracted'
WITH f
OPTIONAL MATCH (e:Fact {id: $ended_id}) WHERE e.user_id = $user_id
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END |
  CREATE (e)-[:SUPERSEDES {weight: 1.0, valid_from: f.valid_from, valid_to: null, recorded_at: $now,
                           expired_at: null}]->(f))
RETURN f.id AS id
