// BM25 full-text seeds over memory content and speaker. `user_key` is a digits-only token derived from
// user_id, so a query can require its tenant inside Lucene (the result is still filtered by user_id).
// The english analyzer stems and drops stop words.
CREATE FULLTEXT INDEX memory_content IF NOT EXISTS FOR (m:Memory) ON EACH [m.content, m.speaker, m.user_key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
