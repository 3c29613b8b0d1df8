// An entity's neighbourhood: the memories mentioning it and the other entities those memories mention.
// :param user_id => 'alice'
// :param entity => 'Rex'
MATCH (e:Entity)<-[r:ENTITY]-(m:Memory)
WHERE e.user_id = $user_id AND (e.key = toLower($entity) OR e.name = $entity OR $entity IN e.aliases)
OPTIONAL MATCH (m)-[r2:ENTITY]->(other:Entity)
WHERE other <> e
RETURN e, r, m, r2, other
