// Fragment (an expression, included by name as {{retention_now(m, $now)}}): the retention of memory __m__ at
// __now__ from its stored anchors. Specification: graphmem.model.anchors.retention_now. A memory without
// coefficients (never evaluated by the decay job, or written by an older graphmem) reads its stored retention;
// a stored value of the wrong type (written by hand) reads as missing, as in the specification; so does a
// date-time outside the years 1-9999 (set by hand: its epoch seconds overflow on the server).
CASE WHEN __m__.retention_scale IS NULL
     THEN coalesce(CASE WHEN __m__.retention IS :: INTEGER | FLOAT THEN __m__.retention END, 1.0)
ELSE [gm_c IN [coalesce(CASE WHEN __m__.recorded_at IS :: ZONED DATETIME THEN CASE WHEN __m__.recorded_at.year >= 1 AND __m__.recorded_at.year <= 9999 THEN __m__.recorded_at END END,
                        CASE WHEN __m__.created_at IS :: ZONED DATETIME THEN CASE WHEN __m__.created_at.year >= 1 AND __m__.created_at.year <= 9999 THEN __m__.created_at END END, __now__).epochSeconds] |
      [gm_a IN [coalesce((CASE WHEN __m__.last_accessed_at IS :: ZONED DATETIME THEN CASE WHEN __m__.last_accessed_at.year >= 1 AND __m__.last_accessed_at.year <= 9999 THEN __m__.last_accessed_at END END).epochSeconds, gm_c)] |
       [gm_x IN [coalesce(CASE WHEN __m__.retention_scale IS :: INTEGER | FLOAT THEN __m__.retention_scale END, 1.0)
                 * exp(-coalesce(CASE WHEN __m__.retention_rate IS :: INTEGER | FLOAT THEN __m__.retention_rate END, 0.0)
                       * CASE WHEN __now__.epochSeconds > gm_a THEN (__now__.epochSeconds - gm_a) / 86400.0 ELSE 0.0 END)
                 + 0.1 * [gm_tc IN [CASE WHEN __now__.epochSeconds > gm_c THEN (__now__.epochSeconds - gm_c) / 86400.0 ELSE 0.0 END]
                          | CASE WHEN gm_tc > 365.0 THEN 0.0 ELSE 1.0 - gm_tc / 365.0 END][0]]
        | CASE WHEN gm_x > 1.0 THEN 1.0 ELSE gm_x END][0]][0]][0] END
