// Every version of a user's tuned retrieval parameters, oldest first, each with the evidence that caused it.
// $id: the per-user configuration id; $user_id: tenant
MATCH (h:UserTuning) WHERE h.user_id = $user_id AND h.config_id = $id
RETURN h.version AS version, h.body AS body, h.evidence AS evidence, h.recorded_at AS updated_at,
       h.recorded_by AS updated_by
ORDER BY h.version
