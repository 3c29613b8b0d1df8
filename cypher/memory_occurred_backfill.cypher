// Migration: memories stored before occurred_at existed get it from created_at (else recorded_at), so
// valid-time reads (as_of) see them; one bounded batch per run, idempotent, nothing else changes.
// $batch: memories per run
MATCH (m:Memory) WHERE m.occurred_at IS NULL
WITH m LIMIT $batch
SET m.occurred_at = coalesce(m.created_at, m.recorded_at)
RETURN count(m) AS updated
