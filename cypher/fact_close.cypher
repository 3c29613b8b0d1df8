// Close superseded fact versions: valid time ends at the new version's valid_from, transaction time now.
// $closes: list of {id, valid_to}
// $user_id, $now
UNWIND $closes AS c
MATCH (f:Fact {id: c.id}) WHERE f.user_id = $user_id
SET f.valid_to = c.valid_to, f.expired_at = $now, f.status = 'superseded'
RETURN count(f) AS closed
