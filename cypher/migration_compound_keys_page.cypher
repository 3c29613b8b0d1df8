// Migration (once per store, init(): graphmem.temporal.migrate.COMPOUND_KEYS), its read: a page of memories,
// in id order after a cursor, whose content may hold a compound term (an identifier, a file name, an address:
// `_`, or `.` or `:` between letters or digits, or camel case), with their search text. Formation before round
// 61 wrote search_text without the words inside such terms (graphmem.model.tokens.compound_parts), so a
// question that writes `parse_config` as "parse config" missed them in full text; the migration's Python
// side decides which words a memory lacks and migration_compound_keys_write adds them. A memory without a
// search text (updated since, or keyless: graphmem reembed keys it) is not read.
// $after: the last id of the previous page ('' at first), $limit: page size
MATCH (m:Memory)
WHERE m.id > $after AND m.search_text IS :: STRING NOT NULL AND m.content IS :: STRING NOT NULL
  AND m.content =~ '(?s).*(?:_|[\\p{L}\\p{N}][.:][\\p{L}\\p{N}]|\\p{Ll}\\p{Lu}|\\p{Lu}\\p{Lu}\\p{Ll}).*'
RETURN m.id AS id, m.content AS content, m.search_text AS search_text
ORDER BY m.id
LIMIT $limit
