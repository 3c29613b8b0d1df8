// Retrieval-induced forgetting (graphmem.model.metamemory.inhibited): each competitor the cue activated but
// recall did not return gains inhibition i' = min(max, max(i, 1 - (1 - i)(1 - rate · activation))) from its
// inhibition now (the stored one halved every recovery_days since inhibited_at), and one more recall miss.
// Strength is untouched: ranking feels the inhibition (score × (1 - inhibition now)) until it recovers.
// $updates: list of {id, activation}; $tenants (the tenant keys the read may see: graphmem.model.scopes); $now: datetime; $rif: {rate, max_inhibition, recovery_days}
UNWIND $updates AS u
MATCH (m:Memory {id: u.id}) WHERE m.user_id IN $tenants
WITH m, u, CASE WHEN m.inhibition IS NULL OR m.inhibited_at IS NULL THEN 0.0
                ELSE m.inhibition * 0.5 ^ ((duration.inSeconds(m.inhibited_at, $now).seconds
                       + duration.inSeconds(m.inhibited_at, $now).nanosecondsOfSecond / 1000000000.0)
                       / 86400.0 / $rif.recovery_days) END AS i0
WITH m, u, CASE WHEN i0 > 1.0 THEN 1.0 WHEN i0 < 0.0 THEN 0.0 ELSE i0 END AS i
WITH m, i, 1.0 - (1.0 - i) * (1.0 - $rif.rate * u.activation) AS grown
WITH m, CASE WHEN grown < i THEN i ELSE grown END AS i1
SET m.inhibition = CASE WHEN i1 > $rif.max_inhibition THEN $rif.max_inhibition ELSE i1 END,
    m.inhibited_at = $now, m.recall_misses = coalesce(m.recall_misses, 0) + 1
RETURN count(m) AS suppressed
