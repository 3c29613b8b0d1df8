// Formation's writes in one statement, one round trip (graphmem.formation.writer.apply; before round 47 seven
// statements, ~1 ms of round trip each): the session's tail, the memories, FOLLOWS, RELATED_TO and CAUSES
// edges, the entities and the ENTITY edges, in this order, so every formation takes its locks in the same order
// (writer._in_lock_order sorts the RELATED_TO, CAUSES and ENTITY lists by the node they attach to). Each part
// is a subquery over its own list that returns one aggregate row whatever the list holds (a part that could
// return no row would skip every part after it); an empty list writes nothing. Every edge is bi-temporal:
// valid from the memory's occurred_at, recorded now, never overwritten.
// $user_id: the tenant (both ends of every edge must belong to it); $now: datetime (transaction time)
// $plan: the lists, in one map (graphmem.store.values.list_map says why):
//   sessions: [{uid, user_id, session_id, agent_id, first_id, last_id, first_at, last_at}]: the session the batch
//     extends (formation sends none or one; each one listed gets its tail's FOLLOWS links)
//   rows: [{id, user_id, content, embedding, context_embedding, session_uid, props: map of scalar properties}]
//   follows: [{src, dst, weight, kind}]; related: [{src, dst, weight}]
//   causes: [{src, dst, weight, cue, method, valid_from}]
//   entities: [{id, user_id, name, type, key, aliases, embedding}]; links: [{memory_id, entity_id, name}]
CALL () {
  // The tenant's User node first, for every batch (with a session or without): consolidate's summaries, a
  // topic rebuild and fact writes take it first too, so no formation holds a memory's or edge's lock while waiting for it (a session-less
  // remember() took it only at its facts, after its edges' locks, and deadlocked with consolidate).
  MERGE (u:User {id: $user_id})
    ON CREATE SET u.user_id = $user_id, u.created_at = $now
  SET u.formed_at = $now
  RETURN count(u) AS locked
}
CALL () {
  // The batch's place in the temporal view, in valid time (history can arrive in any order; untimed turns are
  // timed in the order said, graphmem.formation.writer.said_now), among conversation turns only (memories in a
  // session: not core blocks, store items, summaries or session-less memories). Its first memory follows the
  // session's latest turn at or before it (its tail, unless the batch comes before the tail: then the
  // session's turns are searched), else the user's latest turn of another session at or before it
  // (memory_user_occurred); its last memory is followed by the session's earliest turn after it, else by the
  // earliest turn of another session after it. An edge the batch now lies within ends in transaction time
  // (`expired_at`, nothing deleted): into the session's next turn from at or before the batch, or a
  // cross-session edge into the other session's next turn. The session's tail only moves forward.
  UNWIND $plan.sessions AS s
  MERGE (sess:Session {uid: s.uid})
    ON CREATE SET sess.user_id = s.user_id, sess.session_id = s.session_id, sess.agent_id = s.agent_id,
                  sess.created_at = $now, sess.new = true
  WITH s, sess, coalesce(sess.new, false) AS is_new
  REMOVE sess.new
  WITH s, sess, is_new
  OPTIONAL MATCH (tail:Memory {id: sess.last_memory_id}) WHERE tail.user_id = s.user_id AND NOT is_new
  WITH s, sess, tail, tail IS NOT NULL AND tail.occurred_at > s.first_at AS behind
  WITH s, sess, tail, behind,
       CASE WHEN NOT behind THEN tail.id ELSE COLLECT {
         MATCH (p:Memory)-[:IN_SESSION]->(sess) WHERE p.user_id = s.user_id AND p.occurred_at <= s.first_at
         WITH p ORDER BY p.occurred_at DESC, p.id DESC LIMIT 1
         RETURN p.id
       }[0] END AS same_prev,
       CASE WHEN NOT behind THEN null ELSE COLLECT {
         MATCH (q:Memory)-[:IN_SESSION]->(sess) WHERE q.user_id = s.user_id AND q.occurred_at > s.last_at
         WITH q ORDER BY q.occurred_at, q.id LIMIT 1
         RETURN q.id
       }[0] END AS same_next
  WITH s, sess, same_prev, same_next,
       CASE WHEN same_prev IS NOT NULL THEN null ELSE COLLECT {
         MATCH (p:Memory) USING INDEX SEEK p:Memory(user_id, occurred_at)
         WHERE p.user_id = s.user_id AND p.occurred_at <= s.first_at AND EXISTS { (p)-[:IN_SESSION]->(:Session) }
         WITH p ORDER BY p.user_id DESC, p.occurred_at DESC, p.id DESC LIMIT 1
         RETURN p.id
       }[0] END AS other_prev,
       CASE WHEN same_next IS NOT NULL THEN null ELSE COLLECT {
         MATCH (q:Memory) USING INDEX SEEK q:Memory(user_id, occurred_at)
         WHERE q.user_id = s.user_id AND q.occurred_at > s.last_at AND EXISTS { (q)-[:IN_SESSION]->(:Session) }
           AND NOT (q)-[:IN_SESSION]->(sess)
         WITH q ORDER BY q.user_id, q.occurred_at, q.id LIMIT 1
         RETURN q.id
       }[0] END AS other_next
  SET sess.last_memory_id = CASE WHEN same_next IS NULL THEN s.last_id ELSE sess.last_memory_id END,
      sess.updated_at = $now
  WITH s, same_prev, same_next, other_prev, other_next, coalesce(same_next, other_next) AS next_id
  CALL (s, same_next, next_id) {
    MATCH (x:Memory)-[r:FOLLOWS]->(:Memory {id: next_id})
    WHERE x.user_id = s.user_id AND x.occurred_at <= s.first_at AND r.expired_at IS NULL
      AND (same_next IS NOT NULL OR r.kind = 'cross_session')
    SET r.expired_at = $now
    RETURN count(r) AS spliced
  }
  WITH s, coalesce(same_prev, other_prev) AS prev_id, same_prev IS NOT NULL AS same_before, next_id,
       same_next IS NOT NULL AS same_after
  RETURN collect(CASE WHEN prev_id IS NOT NULL
                      THEN {src: prev_id, dst: s.first_id, weight: CASE WHEN same_before THEN 1.0 ELSE 0.5 END,
                            kind: CASE WHEN same_before THEN 'session' ELSE 'cross_session' END} END)
         + collect(CASE WHEN next_id IS NOT NULL
                        THEN {src: s.last_id, dst: next_id, weight: CASE WHEN same_after THEN 1.0 ELSE 0.5 END,
                              kind: CASE WHEN same_after THEN 'session' ELSE 'cross_session' END} END) AS tail
}
CALL () {
  // The memories with their embeddings (compact float vectors) and session links; decay_due at the epoch (the
  // next decay run computes the new memory's coefficients), created_at $now unless the row has one.
  UNWIND $plan.rows AS row
  CREATE (m:Memory {id: row.id})
  SET m += row.props, m.user_id = row.user_id, m.content = row.content,
      m.recorded_at = $now, m.created_at = coalesce(row.props.created_at, $now), m.version = 1,
      m.decay_due = datetime({epochSeconds: 0})
  WITH m, row
  CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
  CALL db.create.setNodeVectorProperty(m, 'context_embedding', row.context_embedding)
  WITH m, row
  OPTIONAL MATCH (s:Session {uid: row.session_uid})
  FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | CREATE (m)-[:IN_SESSION]->(s))
  RETURN count(m) AS created
}
CALL (tail) {
  // Temporal view: FOLLOWS between consecutive memories (valid from the later one's occurred_at).
  UNWIND tail + $plan.follows AS p
  MATCH (a:Memory {id: p.src}) WHERE a.user_id = $user_id
  MATCH (b:Memory {id: p.dst}) WHERE b.user_id = $user_id
  CREATE (a)-[:FOLLOWS {weight: p.weight, kind: p.kind, valid_from: b.occurred_at, valid_to: null,
                        recorded_at: $now, expired_at: null}]->(b)
  RETURN count(*) AS followed
}
CALL () {
  // Semantic view: RELATED_TO from a new memory to similar memories of the user; weight = cosine, the base its
  // weight decays from (fragments/edge_weight_now) from now on; weight_due at the epoch: the next decay run
  // stores its rate. Association is a decay input of both ends.
  UNWIND $plan.related AS p
  MATCH (a:Memory {id: p.src}) WHERE a.user_id = $user_id
  MATCH (b:Memory {id: p.dst}) WHERE b.user_id = $user_id
  CREATE (a)-[:RELATED_TO {weight: p.weight, weight_base: p.weight, weight_updated_at: $now,
                           weight_due: datetime({epochSeconds: 0}), valid_from: a.occurred_at, valid_to: null,
                           recorded_at: $now, expired_at: null}]->(b)
  SET a.decay_due = datetime({epochSeconds: 0}), b.decay_due = datetime({epochSeconds: 0})
  RETURN count(*) AS related
}
CALL () {
  // Causal view: CAUSES (cause -> effect) from causal cues or an extractor.
  UNWIND $plan.causes AS p
  MATCH (a:Memory {id: p.src}) WHERE a.user_id = $user_id
  MATCH (b:Memory {id: p.dst}) WHERE b.user_id = $user_id
  CREATE (a)-[:CAUSES {weight: p.weight, cue: p.cue, method: p.method, valid_from: p.valid_from,
                       valid_to: null, recorded_at: $now, expired_at: null}]->(b)
  RETURN count(*) AS caused
}
CALL () {
  // Entities (the entity view's nodes); a new surface form is kept as an alias.
  UNWIND $plan.entities AS e
  MERGE (n:Entity {id: e.id})
    ON CREATE SET n.user_id = e.user_id, n.name = e.name, n.type = e.type, n.key = e.key, n.aliases = [],
                  n.mention_count = 0, n.created_at = $now, n.embedding = e.embedding
  // aliases of another type (set by hand) start afresh: a mixed list is refused by the store
  WITH n, e, CASE WHEN n.aliases IS :: LIST<STRING NOT NULL> NOT NULL THEN n.aliases ELSE [] END AS kept
  SET n.aliases = kept + [a IN e.aliases WHERE NOT a IN kept],
      n.updated_at = $now
  RETURN count(n) AS upserted
}
CALL () {
  // Entity view: ENTITY edges from memories to the entities they mention (valid from the memory's occurred_at).
  UNWIND $plan.links AS l
  MATCH (m:Memory {id: l.memory_id}) WHERE m.user_id = $user_id
  MATCH (e:Entity {id: l.entity_id}) WHERE e.user_id = $user_id
  CREATE (m)-[:ENTITY {weight: 1.0, name: l.name, valid_from: m.occurred_at, valid_to: null,
                       recorded_at: $now, expired_at: null}]->(e)
  SET e.mention_count = {{typed_count(e.mention_count, 0)}} + 1
  RETURN count(*) AS linked
}
RETURN created, followed, related, caused, upserted, linked
