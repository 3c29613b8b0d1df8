// Take over the unfinished slots of one automation config whose lease expired (their owner died). The write
// lock taken by the first SET serializes concurrent takeovers; the condition is checked again under the lock,
// so one worker wins each slot. Returns the slots won with their previous owner.
// $prefix: "<config id>/"; $owner; $now; $until: the new lease end; $limit
MATCH (s:JobSlot)
WHERE s.id STARTS WITH $prefix AND s.done = false AND s.lease_until < $now AND s.owner <> $owner
WITH s LIMIT $limit
SET s._lock = true
REMOVE s._lock
WITH s
WHERE s.done = false AND s.lease_until < $now AND s.owner <> $owner
WITH s, s.owner AS previous
SET s.owner = $owner, s.lease_until = $until, s.taken_over_at = $now, s.taken_from = previous,
  s.takeovers = coalesce(s.takeovers, 0) + 1
RETURN s.id AS id, s.job AS job, s.slot AS slot, previous
