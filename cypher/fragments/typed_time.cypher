// Fragment (an expression, included as {{typed_time(m.recorded_at, $now)}}): the stored date-time __m__, else
// the default __now__: a stored value of another type (written by hand) reads as missing, never failing the
// query.
coalesce(CASE WHEN __m__ IS :: ZONED DATETIME THEN __m__ END, __now__)
