// Fragment (an expression, included as {{typed_number(m.access_count, 0)}}): the stored number __m__, else the
// default __now__: a stored value of another type (written by hand) reads as missing, never failing the query.
coalesce(CASE WHEN __m__ IS :: INTEGER | FLOAT THEN __m__ END, __now__)
