// Fragment (an expression, included as {{typed_time(m.recorded_at, $now)}}): the stored date-time __m__, else
// the default __now__: a stored value of another type (written by hand) reads as missing, never failing the
// query; so does a date-time outside the years 1-9999 (its epoch seconds overflow on the server).
coalesce(CASE WHEN __m__ IS :: ZONED DATETIME THEN CASE WHEN __m__.year >= 1 AND __m__.year <= 9999 THEN __m__ END END, __now__)
