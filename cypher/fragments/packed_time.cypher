// Fragment (an expression, included as {{packed_time(m.recorded_at, null)}}; it reads no clock): the value
// __m__ as it is, or a zoned date-time packed as {__time__: [epoch seconds, nanosecond, UTC offset in
// seconds]}, which graphmem.store.values.to_native reads as a Python datetime at that offset (~1 µs, against
// the driver's 55-80 µs for a date-time). The one packing format: property_pairs and the timeline use it.
// A date or date-time outside the years 1-9999 (Neo4j stores up to 999,999,999; set by hand) is read as
// null: Python's calendar ends there, and the driver fails the whole record on one such value (its epoch
// seconds overflow on the server past year ~292 million).
CASE WHEN __m__ IS :: ZONED DATETIME
     THEN CASE WHEN __m__.year >= 1 AND __m__.year <= 9999
               THEN {__time__: [__m__.epochSeconds, __m__.nanosecond, __m__.offsetSeconds]} END
     WHEN (__m__ IS :: DATE OR __m__ IS :: LOCAL DATETIME) AND NOT (__m__.year >= 1 AND __m__.year <= 9999)
     THEN null
     ELSE __m__ END
