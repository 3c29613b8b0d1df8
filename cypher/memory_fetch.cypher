// Memories of the readable tenants by id, with their cosine similarity to the query (null without one),
// retention and strength derived at $now. Properties as fragments/property_pairs (date-times packed; the
// store reads `memory` as one map: graphmem.store.values.to_native).
// $ids, $tenants (the tenant keys the read may see: graphmem.model.scopes), $embedding: list of floats or null
// $now: the reader's clock for the derived retention and strength (null: the server's)
UNWIND $ids AS id
MATCH (m:Memory {id: id}) WHERE m.user_id IN $tenants
// retention and strength are derived now, their coefficients left out (so that no reader derives them twice)
WITH m, ['embedding', 'context_embedding', 'retention_scale', 'retention_rate', 'strength_rate',
         'strength_floor'] AS left_out
RETURN {__properties__: {{property_pairs(m, left_out)}},
        retention: {{retention_now(m, coalesce($now, datetime()))}},
        strength: {{strength_now(m, coalesce($now, datetime()))}}} AS memory,
       CASE WHEN $embedding IS NULL THEN null ELSE {{typed_cosine(m.embedding, $embedding)}} END AS cosine
