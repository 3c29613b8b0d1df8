// Associate job (after a full GDS kNN pass over a tenant): mark its live embedded memories (the projected
// ones) as linked, so the next runs link only newer memories, and as due for decay, since association is a
// decay input (graphmem.model.lifecycle): once per memory here, not once per written pair (a memory is in k
// pairs or more, and the pair loop wrote its decay_due each time: 1M node writes for a 100,000-memory tenant).
// $user_id: the tenant; $now: datetime; $batch: rows per transaction
MATCH (m:Memory)
WHERE m.user_id = $user_id AND m.status IN ['active', 'weak', 'dormant'] AND m.embedding IS NOT NULL
CALL (m) {
  SET m.associated_at = coalesce(m.associated_at, $now), m.decay_due = datetime({epochSeconds: 0})
} IN CONCURRENT TRANSACTIONS OF $batch ROWS // each memory written once: no two inner transactions meet
RETURN count(*) AS marked
