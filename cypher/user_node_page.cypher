// A page of a user's nodes for the export (element ids from user_nodes, read without properties): labels and
// properties (embeddings left out). The export reads a user page by page, each page its own transaction, so
// a user of any size is exported within the transaction time limit (one read of every property of a
// 50,000-memory user took 16 s).
// An element id is only valid within the transaction that read it, and Neo4j reuses a deleted node's: a node
// that is not the user's (deleted since the listing, its id reused by another tenant's) is left out.
// $ids: element ids; $user_id, $session_prefix (user_nodes.cypher)
UNWIND $ids AS id
MATCH (n) WHERE elementId(n) = id
  AND (n.user_id = $user_id OR (n:User AND n.id = $user_id) OR (n:Session AND n.uid STARTS WITH $session_prefix))
RETURN elementId(n) AS element_id, coalesce(n.id, n.uid, elementId(n)) AS key, labels(n) AS labels,
       {__properties__: {{property_pairs(n, ['embedding', 'context_embedding'])}}} AS props
