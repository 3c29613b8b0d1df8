// One fact version by id, within its tenant.
// $user_id, $id
MATCH (f:Fact {id: $id}) WHERE f.user_id = $user_id
RETURN {__properties__: {{property_pairs(f, ['embedding'])}}} AS fact
