// Fragment (a predicate, included as {{memory_listed(m, null)}}: it reads no clock): whether memory __m__
// passes the filters of mem.memories.list and .count, which share it so a count matches its pages:
// $statuses: list of status texts; $memory_type, $session_id: text or null (any); $tags: list, every one
// carried (empty: any; a stored tags value that is not a list of texts carries none). A memory is listed by
// when it was said (occurred_at: every memory graphmem writes has one; init() backfills older ones), which
// lets the list read its pages in the order of the index memory_user_occurred.
__m__.occurred_at IS NOT NULL
AND __m__.status IN $statuses
AND ($memory_type IS NULL OR __m__.memory_type = $memory_type)
AND ($session_id IS NULL OR __m__.session_id = $session_id)
AND all(tag IN $tags WHERE __m__.tags IS :: LIST<STRING NOT NULL> AND tag IN __m__.tags)
