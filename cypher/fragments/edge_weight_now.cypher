// Fragment (an expression, included by name as {{edge_weight_now(r, $now)}}): the weight of relationship (or
// property map) __m__ at __now__, decayed from its base weight at its anchor by its stored daily rate:
// weight_base · (1 - weight_rate)^days since weight_updated_at (else recorded_at). Specification:
// graphmem.model.edge_weights.weight_now. An edge without weight_rate (not evaluated by the decay job yet, or
// written by an older graphmem, or not a RELATED_TO edge) reads its stored weight (null if it has none: each
// reader keeps its own default); a stored value of the wrong type (written by hand) reads as missing, as in
// the specification, and so does a date-time outside the years 1-9999 (its epoch seconds overflow).
CASE WHEN __m__.weight_rate IS NULL OR NOT __m__.weight_rate IS :: INTEGER | FLOAT
     THEN CASE WHEN __m__.weight IS :: INTEGER | FLOAT THEN __m__.weight END
ELSE coalesce(CASE WHEN __m__.weight_base IS :: INTEGER | FLOAT THEN __m__.weight_base END,
              CASE WHEN __m__.weight IS :: INTEGER | FLOAT THEN __m__.weight END, 0.0)
     * (1.0 - CASE WHEN __m__.weight_rate > 1.0 THEN 1.0 WHEN __m__.weight_rate < 0.0 THEN 0.0 ELSE __m__.weight_rate END)
     ^ [gm_at IN [coalesce(CASE WHEN __m__.weight_updated_at IS :: ZONED DATETIME THEN CASE WHEN __m__.weight_updated_at.year >= 1 AND __m__.weight_updated_at.year <= 9999 THEN __m__.weight_updated_at END END,
                           CASE WHEN __m__.recorded_at IS :: ZONED DATETIME THEN CASE WHEN __m__.recorded_at.year >= 1 AND __m__.recorded_at.year <= 9999 THEN __m__.recorded_at END END, __now__).epochSeconds]
        | CASE WHEN __now__.epochSeconds > gm_at THEN (__now__.epochSeconds - gm_at) / 86400.0 ELSE 0.0 END][0] END
