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
  // The session's place in the temporal view (valid time, not arrival: history can be imported in any order).
  // The batch's first memory follows the session's last one, or for a new session the user's latest memory
  // at or before it (memory_user_occurred); when a memory of another session comes after the batch, the
  // batch's last memory is followed by the earliest such one, and the cross-session edges into that one from
  // before the batch end in transaction time (`expired_at`): the batch now lies between them.
  UNWIND $plan.sessions AS s
  MERGE (sess:Session {uid: s.uid})
    ON CREATE SET sess.user_id = s.user_id, sess.session_id = s.session_id, sess.agent_id = s.agent_id,
                  sess.created_at = $now, sess.new = true
  WITH s, sess, sess.last_memory_id AS session_last, coalesce(sess.new, false) AS is_new
  REMOVE sess.new
  SET sess.last_memory_id = s.last_id, sess.updated_at = $now
  WITH s, sess, is_new,
       CASE WHEN is_new THEN COLLECT {
         MATCH (p:Memory) USING INDEX SEEK p:Memory(user_id, occurred_at)
         WHERE p.user_id = s.user_id AND p.occurred_at <= s.first_at
         WITH p ORDER BY p.user_id DESC, p.occurred_at DESC, p.id DESC LIMIT 1
         RETURN p.id
       }[0] ELSE session_last END AS prev_id,
       COLLECT {
         MATCH (q:Memory) USING INDEX SEEK q:Memory(user_id, occurred_at)
         WHERE q.user_id = s.user_id AND q.occurred_at > s.last_at AND NOT (q)-[:IN_SESSION]->(sess)
         WITH q ORDER BY q.user_id, q.occurred_at, q.id LIMIT 1
         RETURN q.id
       }[0] AS next_id
  CALL (s, next_id) {
    MATCH (x:Memory)-[r:FOLLOWS {kind: 'cross_session'}]->(:Memory {id: next_id})
    WHERE x.user_id = s.user_id AND x.occurred_at <= s.first_at AND r.expired_at IS NULL
    SET r.expired_at = $now
    RETURN count(r) AS spliced
  }
  RETURN collect(CASE WHEN prev_id IS NOT NULL AND prev_id <> ''
                      THEN {src: prev_id, dst: s.first_id, weight: CASE WHEN is_new THEN 0.5 ELSE 1.0 END,
                            kind: CASE WHEN is_new THEN 'cross_session' ELSE 'session' END} END)
         + collect(CASE WHEN next_id IS NOT NULL
                        THEN {src: s.last_id, dst: next_id, weight: 0.5, kind: 'cross_session'} END) AS tail
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
  SET n.aliases = n.aliases + [a IN e.aliases WHERE NOT a IN n.aliases],
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
  SET e.mention_count = coalesce(e.mention_count, 0) + 1
  RETURN count(*) AS linked
}
RETURN created, followed, related, caused, upserted, linked
