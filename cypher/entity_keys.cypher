// A user's known entity keys (for recognising lower-case and sentence-initial mentions), most mentioned first.
// $user_id, $limit
MATCH (e:Entity) WHERE e.user_id = $user_id
RETURN e.key AS key, e.id AS id
ORDER BY e.mention_count DESC
LIMIT $limit
