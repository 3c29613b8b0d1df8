// Claim one scheduled slot of a job for a worker: the first MERGE creates the JobSlot (unique id, so
// concurrent claims from several workers serialize) and wins with a lease until $until; the others see
// another owner. Slots older than $horizon are pruned (at most 100 per claim).
// $id: "<config id>/<job>@<slot ISO>", $job, $slot, $owner, $now, $until, $horizon
MERGE (s:JobSlot {id: $id})
  ON CREATE SET s.job = $job, s.slot = $slot, s.owner = $owner, s.claimed_at = $now, s.lease_until = $until,
    s.done = false
WITH s, s.owner = $owner AS granted
CALL (s) {
  MATCH (old:JobSlot) WHERE old.slot < $horizon AND old <> s
  WITH old LIMIT 100
  DELETE old
}
RETURN granted
