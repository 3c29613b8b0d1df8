// Soft-forget one memory of a user on request (status forgotten: out of recall, restorable with
// jobs.restore). Core memory blocks are edited, never forgotten. No row: no such memory for this user.
// $id, $user_id, $reason, $now
MATCH (m:Memory {id: $id}) WHERE m.user_id = $user_id AND NOT m:CoreBlock
FOREACH (_ IN CASE WHEN m.status = 'forgotten' THEN [] ELSE [1] END |
  SET m.status_before_forgetting = m.status, m.status = 'forgotten', m.forgotten_at = $now,
      m.forgotten_reason = $reason, m.status_changed_at = $now)
RETURN m.id AS id
