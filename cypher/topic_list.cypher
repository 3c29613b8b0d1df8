// A user's topics, largest first.
// $user_id: tenant
MATCH (t:Topic) WHERE t.user_id = $user_id
RETURN t {.id, .name, .keywords, .entities, .size, .created_at} AS topic
ORDER BY t.size DESC, t.name
