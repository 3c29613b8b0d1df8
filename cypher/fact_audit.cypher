// Record each fact classification (new, merge, keep_both, supersede) as a Conflict node for audits;
// a merge also confirms the current version.
// $audit: list of {id, user_id, key, fact_type, resolution, reason, old_id, new_id, old_value, new_value}
// $now
UNWIND $audit AS a
CREATE (c:Conflict {id: a.id, user_id: a.user_id, key: a.key, fact_type: a.fact_type,
                    resolution: a.resolution, reason: a.reason, old_value: a.old_value,
                    new_value: a.new_value, recorded_at: $now})
WITH c, a
OPTIONAL MATCH (new:Fact {id: a.new_id}) WHERE new.user_id = a.user_id
OPTIONAL MATCH (old:Fact {id: a.old_id}) WHERE old.user_id = a.user_id
FOREACH (_ IN CASE WHEN new IS NULL THEN [] ELSE [1] END | CREATE (c)-[:ABOUT {role: 'new'}]->(new))
FOREACH (_ IN CASE WHEN old IS NULL THEN [] ELSE [1] END | CREATE (c)-[:ABOUT {role: 'old'}]->(old))
FOREACH (_ IN CASE WHEN a.resolution = 'merge' AND old IS NOT NULL THEN [1] ELSE [] END |
  SET old.confirmations = coalesce(old.confirmations, 0) + 1, old.last_confirmed_at = $now)
RETURN count(c) AS recorded
