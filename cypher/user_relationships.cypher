// Every relationship touching the given nodes of a user (element ids from user_nodes), with its properties and
// its element id, each edge once over all the pages of one tenant's export: with the page of its start node,
// or of its end node when its start is not one of the user's nodes (so a streamed export holds no edge ids).
// $ids: element ids; $user_id, $session_prefix (user_nodes.cypher)
UNWIND $ids AS id
MATCH (a) WHERE elementId(a) = id // still the user's (user_node_page.cypher says why)
  AND (a.user_id = $user_id OR (a:User AND a.id = $user_id) OR (a:Session AND a.uid STARTS WITH $session_prefix))
MATCH (a)-[r]-(other)
// an edge into another tenant (made by hand) is not this user's: its end would name that tenant's node; but a
// reconstruction is filed under the caller for a memory of any tenant it read (reconstruction_record)
WHERE (other.user_id IS NULL OR other.user_id = a.user_id OR type(r) = 'RECONSTRUCTS')
  AND (startNode(r) = a OR NOT (coalesce(other.user_id = $user_id, false)
                                OR (other:User AND coalesce(other.id = $user_id, false))
                                OR (other:Session AND coalesce(other.uid STARTS WITH $session_prefix, false))))
WITH DISTINCT r
WITH startNode(r) AS a, r, endNode(r) AS b
RETURN elementId(r) AS rel, coalesce(a.id, a.uid, elementId(a)) AS src, type(r) AS type, coalesce(b.id, b.uid, elementId(b)) AS dst,
       {__properties__: {{property_pairs(r, [])}}} AS props // date-times packed
ORDER BY type, src, dst
