// Fragment (an expression, included by name as {{edge_weight_now(r, $now)}}): the weight of relationship (or
// property map) __m__ at __now__, decayed from its base weight at its anchor by its stored daily rate:
// weight_base · (1 - weight_rate)^days since weight_updated_at (else recorded_at). Specification:
// graphmem.model.edge_weights.weight_now. An edge without weight_rate (not evaluated by the decay job yet, or
// written by an older graphmem, or not a RELATED_TO edge) reads its stored weight (null if it has none: each
// reader keeps its own default).
CASE WHEN __m__.weight_rate IS NULL THEN __m__.weight
ELSE coalesce(__m__.weight_base, __m__.weight, 0.0)
     * (1.0 - CASE WHEN __m__.weight_rate > 1.0 THEN 1.0 WHEN __m__.weight_rate < 0.0 THEN 0.0 ELSE __m__.weight_rate END)
     ^ CASE WHEN __now__.epochSeconds > coalesce(__m__.weight_updated_at, __m__.recorded_at, __now__).epochSeconds
            THEN (__now__.epochSeconds - coalesce(__m__.weight_updated_at, __m__.recorded_at, __now__).epochSeconds) / 86400.0
            ELSE 0.0 END END
