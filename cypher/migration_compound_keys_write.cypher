// Migration (once per store, init(): graphmem.temporal.migrate.COMPOUND_KEYS), its write: the words inside a
// memory's compound terms that its search text lacks, appended to it (nothing removed), where the search text
// is still the one the page read (a memory updated or re-keyed since keeps what it has).
// $rows: [{id, search_text (as read), extra (the words, space-separated)}]
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.search_text = row.search_text
SET m.search_text = row.search_text + ' ' + row.extra
RETURN count(m) AS updated
