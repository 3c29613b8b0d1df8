// Every version of one core memory block of a user, oldest first like the other histories (current and superseded).
// $user_id, $label
MATCH (m:CoreBlock) WHERE m.user_id = $user_id AND m.core_label = $label
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS block
ORDER BY m.version
