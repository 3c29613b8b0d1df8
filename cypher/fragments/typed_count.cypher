// Fragment (an expression, included as {{typed_count(m.confirmed, 0)}}): the stored count __m__ as an
// integer, else the default __now__: a count of another type, a negative or infinite one or NaN (written by
// hand) reads as missing, and one above 2^40 (graphmem.model.fact_versions.COUNT_MAX, stored_count) as 2^40,
// so that adding to it or summing it never overflows on the server.
coalesce(CASE WHEN __m__ IS :: INTEGER | FLOAT AND 0 <= __m__ <= 1.7976931348623157e308 THEN toInteger(CASE WHEN __m__ < 1099511627776 THEN __m__ ELSE 1099511627776 END) END, __now__)
