// Restore soft-forgotten memories of one user (back to the status they had, strength at least 1).
// $ids: memory ids; $user_id; $now: datetime
MATCH (m:Memory)
WHERE m.id IN $ids AND m.user_id = $user_id AND m.status = 'forgotten'
SET m.status = coalesce(m.status_before_forgetting, 'active'), m.restored_at = $now,
    m.strength = [s IN [{{strength_now(m, $now)}}] | CASE WHEN s < 1.0 THEN 1.0 ELSE s END][0],
    m.strength_updated_at = $now, m.status_changed_at = $now, m.decay_due = datetime({epochSeconds: 0})
REMOVE m.forgotten_at, m.forgotten_reason
RETURN m.id AS id
