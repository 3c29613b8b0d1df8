// An entity's neighbourhood: the memories mentioning it and the other entities those memories mention.
// :param user_id => 'alice'
// :param entity => 'Rex'
// Rows are readable maps: node properties with the label (embeddings left out), edge properties with the type.
MATCH (e:Entity)<-[r:ENTITY]-(m:Memory)
WHERE e.user_id = $user_id AND (e.key = toLower($entity) OR e.name = $entity OR $entity IN e.aliases)
OPTIONAL MATCH (m)-[r2:ENTITY]->(other:Entity)
WHERE other <> e
RETURN e {.*, label: labels(e)[0], embedding: null, context_embedding: null} AS e, r {.*, type: type(r)} AS r, m {.*, label: labels(m)[0], embedding: null, context_embedding: null} AS m,
       CASE WHEN r2 IS NULL THEN null ELSE r2 {.*, type: type(r2)} END AS r2,
       CASE WHEN other IS NULL THEN null ELSE other {.*, label: labels(other)[0], embedding: null, context_embedding: null} END AS other
