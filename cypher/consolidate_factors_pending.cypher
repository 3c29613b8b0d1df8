// Consolidate job (factors): live memories whose strength factors were never computed (as `key`, their element
// id, which consolidate_factors_set writes by: an id may be missing, set by hand), with their content,
// the similarities of the RELATED_TO edges formation made (coherence), their session (its element id) and
// occurrence time as [epoch seconds, nanosecond] (null without one, hence NOT NULL, and outside the years
// 1-9999, set by hand: its epoch seconds overflow on the server; their place in it, serial position, is
// counted from consolidate_session_times.cypher, read once per session: counted here per memory, a page of a
// 10,000-turn session took 20 s) and how connected they are (entities and RELATED_TO/CAUSES links: depth of
// processing).
// $user_id: tenant, or null for all; $limit: rows per page
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.factors_at IS NULL AND m.status IN ['active', 'weak', 'dormant']
WITH m LIMIT $limit
OPTIONAL MATCH (m)-[:IN_SESSION]->(s:Session)
WITH m, s, coalesce(m.occurred_at, m.created_at, m.recorded_at) AS at
RETURN elementId(m) AS key, m.content AS content, elementId(s) AS session,
       CASE WHEN at IS :: ZONED DATETIME NOT NULL THEN CASE WHEN 1 <= at.year <= 9999 THEN [at.epochSeconds, at.nanosecond] END END AS at,
       [(m)-[r:RELATED_TO]-(:Memory) WHERE coalesce(r.created_by, 'formation') <> 'associate'
        | coalesce({{typed_number(r.similarity, null)}}, {{typed_number(r.weight_base, null)}}, {{typed_number(r.weight, null)}})] AS similarities, // the cosine at formation, undecayed
       COUNT { (m)-[:ENTITY]->(:Entity) } AS entities,
       COUNT { (m)-[:RELATED_TO|CAUSES]-(:Memory) } AS links
