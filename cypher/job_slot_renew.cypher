// Extend the leases of the unfinished slots a worker still owns (a slot taken over by another is lost).
// $ids: JobSlot ids; $owner; $until: the new lease end
UNWIND $ids AS id
MATCH (s:JobSlot {id: id})
WHERE s.owner = $owner AND s.done = false
SET s.lease_until = $until
RETURN s.id AS id
