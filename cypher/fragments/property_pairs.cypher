// Fragment (an expression, included as {{property_pairs(m, ['embedding'])}}; __now__ here is a list of
// property names left out): node (or relationship) __m__'s properties as [name, value] pairs, each date-time
// packed (fragments/packed_time). A statement returns them as the map {__properties__: pairs, ...more keys},
// which graphmem.store.values.to_native reads as one property map (the more keys added or replacing): the
// driver decodes a date-time in ~55-80 µs, the store a packed one in ~1. A memory carries 4 date-times when
// written and up to ~15 after recalls, jobs and governance.
[gm_key IN keys(__m__) WHERE NOT gm_key IN __now__ | [gm_key, {{packed_time(__m__[gm_key], null)}}]]
