// Record feedback on a memory of one tenant and adjust its strength and importance; useful feedback confirms
// the memory (metamemory reliability: confirmed, confirmed_at; it also settles its conflicts), not-useful
// feedback disputes it (disputed).
// $memory_id, $user_id, $useful: boolean, $strength, $importance (new values), $id, $now: datetime,
// $query: the query the feedback judges (or null: the latest recall that returned the memory)
// $asked: the memory's asked key after this feedback (graphmem.model.keys.asked_key: the questions it was
// marked useful for, indexed for full text; null: none)
// Runs in the transaction of feedback_fetch, which locked the memory; the lock property goes here. A stored
// count of another type (written by hand: a text, a list, a date) counts as none.
MATCH (m:Memory {id: $memory_id}) WHERE m.user_id = $user_id
CREATE (f:Feedback {id: $id, user_id: $user_id, useful: $useful, at: $now})-[:ABOUT]->(m)
SET m.asked = $asked, m.strength = $strength, m.strength_updated_at = $now, m.decay_due = datetime({epochSeconds: 0}), m.importance = $importance, f.query = $query,
    m.confirmed = {{typed_count(m.confirmed, 0)}} + CASE WHEN $useful THEN 1 ELSE 0 END,
    m.disputed = {{typed_count(m.disputed, 0)}} + CASE WHEN $useful THEN 0 ELSE 1 END,
    m.confirmed_at = CASE WHEN $useful THEN $now ELSE m.confirmed_at END
REMOVE m._LOCK_
RETURN m.id AS id
