// A page of a user's nodes for the export (element ids from user_nodes, read without properties): labels and
// properties (embeddings left out). The export reads a user page by page, each page its own transaction, so
// a user of any size is exported within the transaction time limit (one read of every property of a
// 50,000-memory user took 16 s).
// $ids: element ids
UNWIND $ids AS id
MATCH (n) WHERE elementId(n) = id
RETURN elementId(n) AS element_id, coalesce(n.id, n.uid, elementId(n)) AS key, labels(n) AS labels,
       {__properties__: {{property_pairs(n, ['embedding', 'context_embedding'])}}} AS props
