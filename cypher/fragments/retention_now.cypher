// Fragment (an expression, included by name as {{retention_now(m, $now)}}): the retention of memory __m__ at
// __now__ from its stored anchors. Specification: graphmem.model.anchors.retention_now. A memory without
// coefficients (never evaluated by the decay job, or written by an older graphmem) reads its stored retention.
CASE WHEN __m__.retention_scale IS NULL THEN coalesce(__m__.retention, 1.0)
ELSE [gm_x IN [__m__.retention_scale * exp(-coalesce(__m__.retention_rate, 0.0)
       * CASE WHEN __now__.epochSeconds > coalesce(__m__.last_accessed_at, __m__.recorded_at, __m__.created_at, __now__).epochSeconds
              THEN (__now__.epochSeconds - coalesce(__m__.last_accessed_at, __m__.recorded_at, __m__.created_at, __now__).epochSeconds) / 86400.0
              ELSE 0.0 END)
     + 0.1 * [gm_tc IN [CASE WHEN __now__.epochSeconds > coalesce(__m__.recorded_at, __m__.created_at, __now__).epochSeconds
                          THEN (__now__.epochSeconds - coalesce(__m__.recorded_at, __m__.created_at, __now__).epochSeconds) / 86400.0
                          ELSE 0.0 END] | CASE WHEN gm_tc > 365.0 THEN 0.0 ELSE 1.0 - gm_tc / 365.0 END][0]]
      | CASE WHEN gm_x > 1.0 THEN 1.0 ELSE gm_x END][0] END
