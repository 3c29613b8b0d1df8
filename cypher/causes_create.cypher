// Causal view: CAUSES edges (cause -> effect) from causal cues or an extractor.
// $pairs: list of {src, dst, weight, cue, method, valid_from}
// $user_id, $now
UNWIND $pairs AS p
MATCH (a:Memory {id: p.src}) WHERE a.user_id = $user_id
MATCH (b:Memory {id: p.dst}) WHERE b.user_id = $user_id
CREATE (a)-[:CAUSES {weight: p.weight, cue: p.cue, method: p.method, valid_from: p.valid_from,
                     valid_to: null, recorded_at: $now, expired_at: null}]->(b)
RETURN count(*) AS created
