// Fact supersession chains: from each newest version back through every version it replaced. Records a value
// that arrived late revoked (revoked_at: replaced by a record with another end) are left out.
// :param user_id => 'alice'
// :param key => null   (or one key, e.g. 'location')
MATCH p = (newest:Fact)-[:SUPERSEDES*1..]->(oldest:Fact)
WHERE newest.user_id = $user_id AND ($key IS NULL OR newest.key = $key)
  AND all(f IN nodes(p) WHERE f.revoked_at IS NULL)
  AND NOT EXISTS { (x:Fact)-[:SUPERSEDES]->(newest) WHERE x.revoked_at IS NULL }
  AND NOT EXISTS { (oldest)-[:SUPERSEDES]->(y:Fact) WHERE y.revoked_at IS NULL }
RETURN p
