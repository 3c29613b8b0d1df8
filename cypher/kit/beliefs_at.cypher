// What a user believed at time T: every fact valid at $as_of according to what was recorded by $known_at
// (the same rule as GraphMemory.get_fact(as_of=..., known_at=...)).
// :param user_id => 'alice'
// :param as_of => datetime('2026-03-03T00:00:00Z')
// :param known_at => datetime('2026-03-04T00:00:00Z')
MATCH (f:Fact)
WHERE f.user_id = $user_id AND f.status <> 'conflicted'
  AND f.recorded_at <= $known_at AND f.valid_from <= $as_of
WITH f, CASE WHEN f.revoked_at <= $known_at THEN f.valid_from // recorded again later with another end
             WHEN f.expired_at IS NULL THEN f.valid_to
             WHEN $known_at < f.expired_at THEN null
             ELSE coalesce(f.valid_to, f.valid_from) END AS valid_to
WHERE valid_to IS NULL OR $as_of < valid_to
RETURN f.key AS key, f.value AS value, f.fact_type AS fact_type, f.valid_from AS valid_from,
       valid_to, f.recorded_at AS recorded_at, f.version AS version
ORDER BY key
