// The current version of one core memory block of a user, or no row: its highest version. Every write
// expires the previous version and creates the next in one transaction, but a read at read-committed
// isolation can run beside that commit and see the old version expired and not yet the new one (measured:
// 1 read in 160 concurrent appends found no block); the highest version it sees is never missing. An unexpired
// version first: a version overwritten by hand (text, null: Cypher sorts those apart from numbers, null first
// in descending order) never puts an old version in front of the current one.
// $user_id, $label
MATCH (m:CoreBlock) WHERE m.user_id = $user_id AND m.core_label = $label
WITH m ORDER BY m.expired_at IS NULL DESC, {{typed_number(m.version, 0)}} DESC, m.recorded_at DESC LIMIT 1
RETURN {__properties__: {{property_pairs(m, ['embedding', 'context_embedding'])}}} AS block
