// Fragment (an expression, included by name as {{strength_now(m, $now)}}): the strength of memory __m__ at
// __now__, decayed from its anchor (the stored strength at the later of the last access, strength_updated_at
// and the recording) by its stored rate towards its stored floor, in [0, 4]. Specification:
// graphmem.model.anchors.strength_now. A memory without coefficients reads its stored strength.
[gm_s IN [CASE WHEN __m__.strength_rate IS NULL OR coalesce(__m__.strength, 1.0) <= coalesce(__m__.strength_floor, 0.0)
                 OR __m__.strength_rate <= 0 THEN coalesce(__m__.strength, 1.0)
            ELSE [gm_d IN [[gm_a IN [coalesce(__m__.recorded_at, __m__.created_at, __now__).epochSeconds] |
                         [gm_since IN [CASE WHEN coalesce(__m__.last_accessed_at.epochSeconds, gm_a) > coalesce(__m__.strength_updated_at.epochSeconds, gm_a)
                                         THEN coalesce(__m__.last_accessed_at.epochSeconds, gm_a)
                                         ELSE coalesce(__m__.strength_updated_at.epochSeconds, gm_a) END] |
                          CASE WHEN __now__.epochSeconds > gm_since THEN (__now__.epochSeconds - gm_since) / 86400.0 ELSE 0.0 END][0]][0]] |
                  CASE WHEN gm_d = 0 THEN coalesce(__m__.strength, 1.0)
                       ELSE coalesce(__m__.strength_floor, 0.0) + (coalesce(__m__.strength, 1.0) - coalesce(__m__.strength_floor, 0.0))
                            * (1.0 - CASE WHEN __m__.strength_rate > 1.0 THEN 1.0 ELSE __m__.strength_rate END) ^ gm_d END][0] END]
 | CASE WHEN gm_s > 4.0 THEN 4.0 WHEN gm_s < 0.0 THEN 0.0 ELSE gm_s END][0]
