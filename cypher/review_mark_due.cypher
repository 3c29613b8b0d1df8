// A change of a parameter the review job reads (desired retention, stability gain and cap, initial
// stability: graphmem.automation.config.DUE_MARKS) clears every live memory's next review time, so the next
// review run schedules it again from its stored stability and anchor under the new values (before, a memory
// not recalled since kept the time computed under the old ones). Stability and review history are kept.
// Every tenant: one configuration reviews every memory of the store.
// $batch: rows per inner transaction
MATCH (m:Memory)
WHERE m.next_review_at IS NOT NULL AND m.status IN ['active', 'weak', 'dormant']
CALL (m) {
  REMOVE m.next_review_at
} IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS marked
