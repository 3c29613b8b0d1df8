// BM25 full-text seeds over memory content, speaker and search_text (content + speaker, entity names and
// resolved dates, written at formation; see graphmem.model.keys). `user_key` is a digits-only token derived
// from user_id, so a query can require its tenant inside Lucene (the result is still filtered by user_id).
// `asked`: the questions feedback marked the memory useful for (graphmem.model.keys.asked_key); a query that
// should match a memory's own words only names the other fields (graphmem.retrieval.terms.OWN_FIELDS).
// The english analyzer stems and drops stop words. A store whose index predates search_text or asked has it
// dropped first by graphmem.store.migrations (memories without search_text still match on content).
CREATE FULLTEXT INDEX memory_content IF NOT EXISTS FOR (m:Memory) ON EACH [m.content, m.speaker, m.search_text, m.user_key, m.asked]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
