// Consolidate job (factors): for each session (element ids from consolidate_factors_pending), its size and the
// occurrence times of its memories as [epoch seconds, nanosecond] (zoned date-times, as graphmem writes them:
// a time of another type or outside the years 1-9999, written by hand, is left out, and a memory with one gets
// position 0; so is a memory with no time at all: `null IS :: ZONED DATETIME` holds, hence NOT NULL, as a pair
// of nulls failed the job in Python before round 61), read once per page: the serial position of each
// pending memory is the number of its session's memories said strictly before it
// (graphmem.dynamics.steps._positions).
// $sessions: element ids of Session nodes
UNWIND $sessions AS sid
MATCH (s:Session) WHERE elementId(s) = sid
CALL (s) {
  MATCH (s)<-[:IN_SESSION]-(o:Memory)
  WITH coalesce(o.occurred_at, o.created_at, o.recorded_at) AS t
  RETURN count(*) AS size, collect(CASE WHEN t IS :: ZONED DATETIME NOT NULL THEN CASE WHEN 1 <= t.year <= 9999 THEN [t.epochSeconds, t.nanosecond] END END) AS times
}
RETURN sid AS session, size, times
