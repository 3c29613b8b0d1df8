// Migration: memories stored before occurred_at existed get it from created_at (else recorded_at), so
// valid-time reads (as_of) see them; one bounded batch per run, idempotent, nothing else changes.
// $batch: memories per run
MATCH (m:Memory) WHERE m.occurred_at IS NULL AND (m.created_at IS NOT NULL OR m.recorded_at IS NOT NULL)
WITH m LIMIT $batch // a memory with no time at all is left alone: counting it would loop init() forever
SET m.occurred_at = coalesce(m.created_at, m.recorded_at)
RETURN count(m) AS updated
