// Topics job, read: per tenant, a signature of what its topics are built from (how many memories, how many
// live, the live ones' versions and RELATED_TO and ENTITY degrees, the latest recorded, updated, forgotten,
// restored and governed times: an anonymized memory's words must leave its topic's name) beside the one
// stored at its last rebuild (User.topics_signature, topic_mark); stale when they differ. Tenants with
// memories or topics; degrees come from the node's degree store, so a quiet tenant costs this one read. A
// time of another type (a list written by hand, which toString() refuses) reads as '-'.
// $user_id: one tenant, or null for all; $live: live statuses
CALL () { // one tenant through the user_id indexes; every tenant by label scans only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m.user_id AS user_id, m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m.user_id AS user_id, m
  UNION ALL
  MATCH (t:Topic) WHERE t.user_id = $user_id RETURN DISTINCT t.user_id AS user_id, null AS m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (t:Topic) RETURN DISTINCT t.user_id AS user_id, null AS m
}
WITH user_id, m, m IS NOT NULL AND m.status IN $live AS live
WITH user_id, count(m) AS memories,
     [max(m.recorded_at), max(m.updated_at), max(m.forgotten_at), max(m.restored_at), max(m.governed_at)]
       AS times,
     sum(CASE WHEN live THEN 1 ELSE 0 END) AS live_memories,
     sum(CASE WHEN live THEN {{typed_number(m.version, 1)}} ELSE 0 END) AS versions,
     sum(CASE WHEN live THEN COUNT { (m)-[:RELATED_TO]-() } ELSE 0 END) AS links,
     sum(CASE WHEN live THEN COUNT { (m)-[:ENTITY]->() } ELSE 0 END) AS mentions
WITH user_id, toString(memories) + '/' + toString(live_memories) + '/' + toString(versions) + '/' +
     toString(links) + '/' + toString(mentions) +
     reduce(text = '', t IN times | text + '/' + coalesce(toStringOrNull(t), '-')) AS signature
OPTIONAL MATCH (u:User {id: user_id})
RETURN user_id, signature, coalesce(u.topics_signature <> signature, true) AS stale
ORDER BY user_id
