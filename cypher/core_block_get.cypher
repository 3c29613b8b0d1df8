// The current version of one core memory block of a user, or no row.
// $user_id, $label
MATCH (m:CoreBlock) WHERE m.user_id = $user_id AND m.core_label = $label AND m.expired_at IS NULL
RETURN m {.*, embedding: null, context_embedding: null} AS block
