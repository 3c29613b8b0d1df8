// The version of a fact key valid at $as_of as recorded by $known_at (graphmem.temporal.reads.known_interval):
// recorded by then, not a kept contradiction, and its valid interval as known then contains $as_of
// (a never-closed version ends at its recorded valid_to, null: open; a version closed after $known_at was
// still open then; one closed without valid_to is valid nowhere). Where two versions hold at $as_of (a value
// stated after a plan and starting before it overlaps the version the plan had closed:
// graphmem.model.facts.settles_plan), the later recorded wins, and of two recorded together the later started.
// The current value is this read at now: a plan not started yet leaves the value it will replace current.
// $user_id, $key, $agent_id (null: any agent), $as_of, $known_at: datetimes
MATCH (f:Fact)
WHERE f.user_id = $user_id AND f.key = $key AND ($agent_id IS NULL OR f.agent_id = $agent_id)
  AND f.status <> 'conflicted' AND f.recorded_at <= $known_at AND f.valid_from <= $as_of
  AND coalesce($as_of < {{fact_valid_to(f, $known_at)}}, true)
RETURN {__properties__: {{property_pairs(f, ['embedding'])}}} AS fact
ORDER BY f.recorded_at DESC, f.valid_from DESC
LIMIT 1
