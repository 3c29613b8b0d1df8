// Fragment (an expression, included by name as {{strength_now(m, $now)}}): the strength of memory __m__ at
// __now__, decayed from its anchor (the stored strength at the later of the last access, strength_updated_at
// and the recording) by its stored rate towards its stored floor, in [0, 4]. Specification:
// graphmem.model.anchors.strength_now. A memory without coefficients reads its stored strength; a stored
// value of the wrong type (written by hand) reads as missing, as in the specification; so does a date-time
// outside the years 1-9999 (set by hand: its epoch seconds overflow on the server).
[gm_s0 IN [coalesce(CASE WHEN __m__.strength IS :: INTEGER | FLOAT THEN __m__.strength END, 1.0)] |
 [gm_s IN [CASE WHEN __m__.strength_rate IS NULL OR NOT __m__.strength_rate IS :: INTEGER | FLOAT
                     OR __m__.strength_rate <= 0 THEN gm_s0
  ELSE [gm_floor IN [coalesce(CASE WHEN __m__.strength_floor IS :: INTEGER | FLOAT THEN __m__.strength_floor END, 0.0)] |
        CASE WHEN gm_s0 <= gm_floor THEN gm_s0
        ELSE [gm_a IN [coalesce(CASE WHEN __m__.recorded_at IS :: ZONED DATETIME THEN CASE WHEN __m__.recorded_at.year >= 1 AND __m__.recorded_at.year <= 9999 THEN __m__.recorded_at END END,
                                CASE WHEN __m__.created_at IS :: ZONED DATETIME THEN CASE WHEN __m__.created_at.year >= 1 AND __m__.created_at.year <= 9999 THEN __m__.created_at END END, __now__).epochSeconds] |
              [gm_since IN [[gm_p IN [[coalesce((CASE WHEN __m__.last_accessed_at IS :: ZONED DATETIME THEN CASE WHEN __m__.last_accessed_at.year >= 1 AND __m__.last_accessed_at.year <= 9999 THEN __m__.last_accessed_at END END).epochSeconds, gm_a),
                                        coalesce((CASE WHEN __m__.strength_updated_at IS :: ZONED DATETIME THEN CASE WHEN __m__.strength_updated_at.year >= 1 AND __m__.strength_updated_at.year <= 9999 THEN __m__.strength_updated_at END END).epochSeconds, gm_a)]]
                             | CASE WHEN gm_p[0] > gm_p[1] THEN gm_p[0] ELSE gm_p[1] END][0]] |
               [gm_d IN [CASE WHEN __now__.epochSeconds > gm_since THEN (__now__.epochSeconds - gm_since) / 86400.0 ELSE 0.0 END] |
                CASE WHEN gm_d = 0 THEN gm_s0
                     ELSE gm_floor + (gm_s0 - gm_floor)
                          * (1.0 - CASE WHEN __m__.strength_rate > 1.0 THEN 1.0 ELSE __m__.strength_rate END) ^ gm_d END][0]][0]][0]
        END][0] END]
  | CASE WHEN gm_s > 4.0 THEN 4.0 WHEN gm_s < 0.0 THEN 0.0 ELSE gm_s END][0]][0]
