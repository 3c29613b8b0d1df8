// A page of mem.memories.list after the memory $after (a cursor: the previous page's last memory, which must
// be the tenant's): the memories that follow it in memory_list's order (latest first by occurred_at, ties by
// element id), read from its place in the index memory_user_occurred on, so a deep page costs a page, not
// what precedes it ($offset skips memories before it instead, and reads them). One row: whether the cursor
// was found (and whether it is the tenant's memory at all: one whose occurred_at was set by hand to another
// type has no place in the order), and the page (each memory as memory_fetch returns it:
// fragments/fetched_memory).
// $user_id: tenant key; $statuses, $memory_type, $session_id, $tags: the filters (fragments/memory_listed);
// $after: a memory id; $offset, $limit: the page; $now: the reader's clock (null: the server's)
OPTIONAL MATCH (named:Memory {id: $after})
WHERE named.user_id = $user_id
WITH named IS NOT NULL AS known, CASE WHEN named.occurred_at IS :: ZONED DATETIME THEN named END AS cursor
CALL (cursor) {
  MATCH (m:Memory) USING INDEX SEEK m:Memory(user_id, occurred_at) // the planner's own choice varied
  WHERE m.user_id = $user_id AND m.occurred_at <= cursor.occurred_at AND {{memory_listed(m, null)}}
    // a tie with the cursor follows it by element id (a CASE, not an OR: the planner splits an OR into a
    // union of two seeks, which loses the index's order and sorts the rest of the tenant)
    AND CASE WHEN m.occurred_at = cursor.occurred_at THEN elementId(m) > elementId(cursor) ELSE true END
  WITH m ORDER BY m.user_id DESC, m.occurred_at DESC, elementId(m)
  SKIP $offset LIMIT $limit
  RETURN collect({{fetched_memory(m, coalesce($now, datetime()))}}) AS memories
}
RETURN cursor IS NOT NULL AS cursor_found, known AS cursor_known, memories
