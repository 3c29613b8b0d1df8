// Memories of the readable tenants by id, with their cosine similarity to the query (null without one),
// retention and strength derived at $now.
// $ids, $tenants (the tenant keys the read may see: graphmem.model.scopes), $embedding: list of floats or null
// $now: the reader's clock for the derived retention and strength (null: the server's)
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
RETURN m {.*, embedding: null, context_embedding: null, // retention and strength derived now (the
          // coefficients left out, so that no reader derives them twice)
          retention: {{retention_now(m, coalesce($now, datetime()))}}, strength: {{strength_now(m, coalesce($now, datetime()))}},
          retention_scale: null, retention_rate: null, strength_rate: null, strength_floor: null} AS memory,
       CASE WHEN $embedding IS NULL THEN null ELSE {{typed_cosine(m.embedding, $embedding)}} END AS cosine
