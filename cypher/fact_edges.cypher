// History edges between fact versions: SUPERSEDES (new -> old) and CONFLICTS_WITH (kept contradiction).
// $supersedes, $conflicts: lists of {src, dst, valid_from}
// $user_id, $now
CALL () {
  UNWIND $supersedes AS p
  MATCH (a:Fact {id: p.src}) WHERE a.user_id = $user_id
  MATCH (b:Fact {id: p.dst}) WHERE b.user_id = $user_id
  CREATE (a)-[:SUPERSEDES {weight: 1.0, valid_from: p.valid_from, valid_to: null, recorded_at: $now,
                           expired_at: null}]->(b)
  RETURN count(*) AS superseded
}
CALL () {
  UNWIND $conflicts AS p
  MATCH (a:Fact {id: p.src}) WHERE a.user_id = $user_id
  MATCH (b:Fact {id: p.dst}) WHERE b.user_id = $user_id
  CREATE (a)-[:CONFLICTS_WITH {weight: 1.0, valid_from: p.valid_from, valid_to: null, recorded_at: $now,
                               expired_at: null}]->(b)
  RETURN count(*) AS conflicting
}
RETURN superseded, conflicting
