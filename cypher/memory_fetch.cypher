// Memories of the readable tenants by id, with their cosine similarity to the query (null without one),
// retention and strength derived at $now (fragments/fetched_memory: date-times packed; the store reads
// `memory` as one map: graphmem.store.values.to_native).
// $ids, $tenants (the tenant keys the read may see: graphmem.model.scopes), $embedding: list of floats or null
// $now: the reader's clock for the derived retention and strength (null: the server's)
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
RETURN {{fetched_memory(m, coalesce($now, datetime()))}} AS memory,
       CASE WHEN $embedding IS NULL THEN null ELSE {{typed_cosine(m.embedding, $embedding)}} END AS cosine
