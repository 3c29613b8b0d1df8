// The current core memory blocks of a user (pinned P0 memories labelled CoreBlock), by label.
// $user_id
MATCH (m:CoreBlock) WHERE m.user_id = $user_id AND m.expired_at IS NULL
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS block
ORDER BY m.core_label
