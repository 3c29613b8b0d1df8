// Topics job, write (1/2): remove a user's previous topics with their IN_TOPIC edges (topics are derived
// data: the job rebuilds them whole).
// $user_id: tenant
MATCH (t:Topic) WHERE t.user_id = $user_id
DETACH DELETE t
RETURN count(*) AS removed
