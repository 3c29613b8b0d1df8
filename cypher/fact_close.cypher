// Close superseded (or ended: "I no longer ...") fact versions: valid time ends at the new version's
// valid_from (or the ending statement's time), transaction time now. A version revoked (`revoke`: its record
// replaced by a later one with another end, graphmem.model.facts) keeps everything and no longer holds from
// now (`revoked_at`, read by fragments/fact_valid_to.cypher).
// $closes: list of {id, valid_to, status: 'superseded' | 'ended'} or {id, revoke: true}
// $user_id, $now
UNWIND $closes AS c
MATCH (f:Fact {id: c.id}) WHERE f.user_id = $user_id
SET f += CASE WHEN c.revoke THEN {revoked_at: coalesce(f.revoked_at, $now)}
              ELSE {valid_to: c.valid_to, expired_at: $now, status: coalesce(c.status, 'superseded')} END
RETURN count(f) AS closed
