// Consolidate job (factors): live memories whose emotion/presentation/coherence factors were never computed,
// with their content and the similarities of the RELATED_TO edges formation made (coherence).
// $user_id: tenant, or null for all; $limit: rows per page
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.factors_at IS NULL AND m.status IN ['active', 'weak', 'dormant']
WITH m LIMIT $limit
RETURN m.id AS id, m.content AS content,
       [(m)-[r:RELATED_TO]-(:Memory) WHERE coalesce(r.created_by, 'formation') <> 'associate'
        | coalesce(r.similarity, r.weight)] AS similarities
