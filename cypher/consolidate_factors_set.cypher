// Consolidate job (factors): store the emotion, valence, presentation and coherence factors computed by
// graphmem.model.factors and the serial-position and depth heuristics of graphmem.model.heuristics (the
// decay job reads them as the salience).
// Each row names its memory by element id (consolidate_factors_pending's `key`), not by m.id: a memory whose id
// was removed by hand, or set to a value that reads back as another (NaN reads as null), matched nothing,
// stayed pending and the job read the same page forever (round 61). A memory factored
// meanwhile (another run) is left as it is.
// $rows: list of {key, emotion, valence, presentation, coherence, serial, depth}; $now: datetime
UNWIND $rows AS row
MATCH (m:Memory) WHERE elementId(m) = row.key AND m.factors_at IS NULL
SET m.emotion = row.emotion, m.valence = row.valence, m.presentation = row.presentation,
    m.coherence = row.coherence, m.serial = row.serial, m.depth = row.depth, m.factors_at = $now,
    m.decay_due = datetime({epochSeconds: 0})
RETURN count(m) AS factored
