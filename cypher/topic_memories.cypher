// The live memories of one of a user's topics, strongest first.
// $topic_id, $user_id: tenant; $live: live statuses; $k: most rows
MATCH (t:Topic {id: $topic_id}) WHERE t.user_id = $user_id
MATCH (m:Memory)-[:IN_TOPIC]->(t) WHERE m.user_id = $user_id AND m.status IN $live // not through an edge alone
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS memory
ORDER BY {{strength_now(m, datetime())}} * coalesce(m.importance, 0.5) DESC, m.created_at
LIMIT $k
