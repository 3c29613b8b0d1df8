// Consolidate job (factors): store the emotion, valence, presentation and coherence factors computed by
// graphmem.model.factors and the serial-position and depth heuristics of graphmem.model.heuristics (the
// decay job reads them as the salience).
// $rows: list of {id, emotion, valence, presentation, coherence, serial, depth}; $now: datetime
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.emotion = row.emotion, m.valence = row.valence, m.presentation = row.presentation,
    m.coherence = row.coherence, m.serial = row.serial, m.depth = row.depth, m.factors_at = $now,
    m.decay_due = datetime({epochSeconds: 0})
RETURN count(m) AS factored
