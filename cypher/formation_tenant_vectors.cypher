// Formation context, a large batch into a tenant small enough to read: every live memory's vector of the tenant
// (at most $cap), for one in-process comparison with all the batch's vectors (graphmem.formation.neighbours).
// $user_id, $cap, $dimension: the embedding space's (a vector replaced by hand with another type or size is
// left out). occurred_at comes as epoch microseconds (`occurred_us`): decoding thousands of datetimes costs
// the driver ~35 µs each, as much as the vectors; only the neighbours kept are converted.
MATCH (m:Memory) WHERE m.user_id = $user_id AND NOT coalesce(m.status, 'active') IN ['forgotten', 'superseded']
  AND m.embedding IS NOT NULL
WITH m LIMIT $cap
WITH m, m.embedding AS embedding // read once
WHERE coalesce(embedding IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(embedding) = $dimension, false)
// [vector filter] a Cypher 25 server (2026.01+): each vector as one packed VECTOR value (a numpy array in
// process); vector() refuses a non-finite coordinate for the whole statement, which is then read as lists
RETURN m.id AS id, vector(embedding, $dimension, FLOAT32) AS embedding, m.content AS content,
// [end]
// [no vector filter]
RETURN m.id AS id, embedding, m.content AS content,
// [end]
       CASE WHEN {{typed_time(m.occurred_at, null)}} IS NOT NULL // another type or year (by hand) reads as none
            THEN m.occurred_at.epochSeconds * 1000000 + m.occurred_at.microsecond END AS occurred_us,
       m.session_id AS session_id
