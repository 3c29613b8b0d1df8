// `graphmem doctor`: how many memories formation wrote lack the search keys it has stored since 2026-12-01
// (fragments/keyless_memory, with an embedding: those the re-embedding keys), among the first $scan memories
// in store order (the label scan's: node ids, so mostly a store's oldest memories first: ids are reused after
// deletes). Bounded: it reads at most $scan memories whatever the store holds (scanned = $scan: there may be
// more).
// $user_id: one tenant only (tests) or null for the whole store, $scan: the most memories read
MATCH (m:Memory)
WHERE $user_id IS NULL OR m.user_id = $user_id
WITH m LIMIT $scan
RETURN count(m) AS scanned,
       count(CASE WHEN m.embedding IS NOT NULL AND {{keyless_memory(m, null)}} THEN 1 END) AS keyless
