// Fragment (an expression, included as {{packed_time(m.recorded_at, null)}}; it reads no clock): the value
// __m__ as it is, or a zoned date-time packed as {__time__: [epoch seconds, nanosecond, UTC offset in
// seconds]}, which graphmem.store.values.to_native reads as a Python datetime at that offset (~1 µs, against
// the driver's 55-80 µs for a date-time). The one packing format: property_pairs and the timeline use it.
CASE WHEN __m__ IS :: ZONED DATETIME
     THEN {__time__: [__m__.epochSeconds, __m__.nanosecond, __m__.offsetSeconds]} ELSE __m__ END
