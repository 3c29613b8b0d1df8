// Associate job: how many live embedded memories the associate job has not linked yet (associated_at unset),
// out of all live embedded ones; the job links only those (incremental) unless most are new. No vector is
// read here (checking each one's type and size cost 1.2 s of a 100,000-memory tenant's first pass): a vector
// replaced by hand counts as pending, the pass that reads it leaves it out, and a full pass marks it.
// $user_id: tenant, or null for all
CALL () { // one tenant through its user_id index; every tenant by a label scan only when $user_id is null
  MATCH (m:Memory) WHERE m.user_id = $user_id RETURN m
  UNION ALL
  UNWIND CASE WHEN $user_id IS NULL THEN [true] ELSE [] END AS all_users
  MATCH (m:Memory) RETURN m
}
WITH m WHERE m.status IN ['active', 'weak', 'dormant'] AND m.embedding IS NOT NULL
RETURN count(*) AS live,
       count(CASE WHEN m.associated_at IS NULL THEN 1 END) AS pending
