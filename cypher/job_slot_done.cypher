// Mark a slot's job finished by its owner: a done slot is never taken over.
// $id: JobSlot id; $owner; $now
MATCH (s:JobSlot {id: $id})
WHERE s.owner = $owner
SET s.done = true, s.finished_at = $now
RETURN s.id AS id
