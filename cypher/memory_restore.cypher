// Restore soft-forgotten memories of one user (back to the status they had, strength at least 1).
// $ids: memory ids; $user_id; $now: datetime
MATCH (m:Memory)
WHERE m.id IN $ids AND m.user_id = $user_id AND m.status = 'forgotten'
SET m.status = coalesce(m.status_before_forgetting, 'active'), m.restored_at = $now,
    m.strength = CASE WHEN coalesce(m.strength, 0.0) < 1.0 THEN 1.0 ELSE m.strength END,
    m.strength_updated_at = $now, m.status_changed_at = $now
REMOVE m.forgotten_at, m.forgotten_reason
RETURN m.id AS id
