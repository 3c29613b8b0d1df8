// Close superseded (or ended: "I no longer ...") fact versions: valid time ends at the new version's
// valid_from (or the ending statement's time), transaction time now.
// $closes: list of {id, valid_to, status: 'superseded' | 'ended'}
// $user_id, $now
UNWIND $closes AS c
MATCH (f:Fact {id: c.id}) WHERE f.user_id = $user_id
SET f.valid_to = c.valid_to, f.expired_at = $now, f.status = coalesce(c.status, 'superseded')
RETURN count(f) AS closed
