// A per-memory governance decision: retain (flag it: `retained`, `governance`), anonymize (redact
// its content and personal fields; the caller replaces its embedding) or delete (hard, with its relationships). Returns the memory's version.
// $user_id, $id, $decision: retain | anonymize | delete, $redacted: replacement text, $now
MATCH (m:Memory {id: $id}) WHERE m.user_id = $user_id
WITH m, m.version AS version
FOREACH (_ IN CASE WHEN $decision = 'retain' THEN [1] ELSE [] END |
  SET m.retained = true, m.governed_at = $now, m.governance = 'retain')
FOREACH (_ IN CASE WHEN $decision = 'anonymize' THEN [1] ELSE [] END |
  SET m.content = $redacted, m.metadata = '{}', m.tags = [], m.speaker = null,
      m.anonymized = true, m.governed_at = $now, m.governance = 'anonymize')
FOREACH (_ IN CASE WHEN $decision = 'delete' THEN [1] ELSE [] END | // the neighbours lose an association
  FOREACH (o IN [(m)-[:RELATED_TO]-(o:Memory) WHERE o.user_id = m.user_id | o] | SET o.decay_due = datetime({epochSeconds: 0}))
  DETACH DELETE m)
RETURN version
