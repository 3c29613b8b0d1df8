// Fragment (a predicate, included as {{memory_listed(m, null)}}: it reads no clock): whether memory __m__
// passes the filters of mem.memories.list and .count, which share it so a count matches its pages:
// $statuses: list of status texts; $memory_type, $session_id: text or null (any); $tags: list, every one
// carried (empty: any; a stored tags value that is not a list of texts carries none).
__m__.status IN $statuses
AND ($memory_type IS NULL OR __m__.memory_type = $memory_type)
AND ($session_id IS NULL OR __m__.session_id = $session_id)
AND all(tag IN $tags WHERE __m__.tags IS :: LIST<STRING NOT NULL> AND tag IN __m__.tags)
