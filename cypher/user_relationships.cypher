// Every relationship touching the given nodes of a user (element ids from user_nodes), with its properties.
// $ids: element ids
UNWIND $ids AS id
MATCH (a) WHERE elementId(a) = id
MATCH (a)-[r]-()
WITH DISTINCT r
WITH startNode(r) AS a, r, endNode(r) AS b
RETURN coalesce(a.id, a.uid, elementId(a)) AS src, type(r) AS type, coalesce(b.id, b.uid, elementId(b)) AS dst,
       {__properties__: {{property_pairs(r, [])}}} AS props // date-times packed
ORDER BY type, src, dst
