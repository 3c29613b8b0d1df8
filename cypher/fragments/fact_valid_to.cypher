// Fragment (an expression, included as {{fact_valid_to(f, $known_at)}}): where fact version __m__'s valid
// interval ends as it read at the transaction time __now__ (graphmem.temporal.reads.known_interval): its stored
// valid_to while nothing closed it; still open (null) when it was closed after __now__; once closed, its
// valid_to, or its valid_from for a version retracted as never true (valid nowhere); its valid_from too once
// revoked (recorded again with another end: revoked_at). A read valid at $as_of keeps the version when
// coalesce($as_of < this, true).
CASE WHEN __m__.revoked_at <= __now__ THEN __m__.valid_from
     WHEN __m__.expired_at IS NULL THEN __m__.valid_to
     WHEN __now__ < __m__.expired_at THEN null
     ELSE coalesce(__m__.valid_to, __m__.valid_from) END
