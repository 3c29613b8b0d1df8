// Replace a memory's embedding after its content changed.
// $user_id, $id, $embedding: list of floats
MATCH (m:Memory {id: $id}) WHERE m.user_id = $user_id
CALL db.create.setNodeVectorProperty(m, 'embedding', $embedding)
RETURN count(m) AS updated
