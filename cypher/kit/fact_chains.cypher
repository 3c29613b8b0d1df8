// Fact supersession chains: from each newest version back through every version it replaced.
// :param user_id => 'alice'
// :param key => null   (or one key, e.g. 'location')
MATCH p = (newest:Fact)-[:SUPERSEDES*1..]->(oldest:Fact)
WHERE newest.user_id = $user_id AND ($key IS NULL OR newest.key = $key)
  AND NOT EXISTS { (:Fact)-[:SUPERSEDES]->(newest) } AND NOT EXISTS { (oldest)-[:SUPERSEDES]->(:Fact) }
RETURN p
