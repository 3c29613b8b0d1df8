// Store the vector of each fact version's text as context() ranks it (graphmem.retrieval.fact_vectors) once it
// was embedded: later contexts score the version in the database (context_read) instead of embedding its text
// again in every process (before round 56 every context() embedded every current fact not in a per-process
// cache of 4,096 texts: 3.5-4 s a call for a user with 5,000 facts, the first call of a process 11-19 s).
// Only a version still holding the key and value it was embedded from: one anonymized meanwhile
// (user_anonymize redacts both and drops the vector) keeps no vector of its old words.
// $rows: list of {id, user_id, key, value (as context_read returned them), embedding: list of floats}
UNWIND $rows AS r
MATCH (f:Fact {id: r.id})
WHERE f.user_id = r.user_id AND f.key = r.key AND f.value = r.value AND f.anonymized IS NULL
CALL db.create.setNodeVectorProperty(f, 'embedding', r.embedding)
RETURN count(f) AS stored
