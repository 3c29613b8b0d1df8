// Fragment (an expression, included as {{plan_held_nowhere(f, false)}}): whether fact version __m__ is a plan
// that never held, withdrawn (retracted) or replaced before its start (closed at its own valid_from); __now__
// is what a version with properties of other types (written by hand) reads as.
coalesce(__m__.planned_at IS NOT NULL
         AND (__m__.status = 'retracted' OR (__m__.status = 'superseded' AND __m__.valid_to = __m__.valid_from)),
         __now__)
