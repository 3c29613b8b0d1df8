// How many relationships touch the given nodes of a user (element ids from user_nodes): the deletion report.
// $ids: element ids
UNWIND $ids AS id
MATCH (a) WHERE elementId(a) = id
MATCH (a)-[r]-()
RETURN count(DISTINCT r) AS relationships
