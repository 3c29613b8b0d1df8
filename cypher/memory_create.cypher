// Create a batch of memories with their embeddings (stored as compact float vectors) and session links.
// $rows: list of {id, user_id, content, embedding, context_embedding, session_uid,
//        props: map of scalar properties}
// $now: datetime (transaction time: recorded_at, and created_at unless the row has one); decay_due is the epoch
// (the next decay run computes the new memory's coefficients). Both are set here rather than sent per row.
UNWIND $rows AS row
CREATE (m:Memory {id: row.id})
SET m += row.props, m.user_id = row.user_id, m.content = row.content,
    m.recorded_at = $now, m.created_at = coalesce(row.props.created_at, $now), m.version = 1,
    m.decay_due = datetime({epochSeconds: 0})
WITH m, row
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
CALL db.create.setNodeVectorProperty(m, 'context_embedding', row.context_embedding)
WITH m, row
OPTIONAL MATCH (s:Session {uid: row.session_uid})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (m)-[:IN_SESSION]->(s))
RETURN count(m) AS created
