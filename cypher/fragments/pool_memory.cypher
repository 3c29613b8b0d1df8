// Fragment (an expression, included as {{pool_memory(n, covered)}}): what recall's ranking reads of memory
// __m__, one compact row (recall_pool's memories, and recall_filtered's: one shape for both). No times, which
// are slow to decode (~55 µs each in the driver, against ~1 µs for an integer): the event range, when the
// memory was said (`said`, its occurred_at) and when recall last inhibited it (`inhibited_ms`, its
// inhibited_at: most memories of a tenant that is recalled often) come as epoch milliseconds (null outside the
// years 1-9999, set by hand: the server's epoch milliseconds overflow past year ~292 million). __now__ here
// is a boolean: whether the caller has the memory's query cosines already (the exact scan's), so that none
// is computed again (`cosine` and `context_cosine` null).
// Reads the parameters $embedding, $known_at, $now (the recall's clock for derived retention and strength; null: the
// server's), $situation (the conversation's vector or null: `situation` is its cosine with the context key),
// $filtering (a recall filter reads the type and tags) and $with_metadata (and the metadata JSON text).
// `text` is the search text; `asked` the questions feedback marked the memory useful for (full text).
// `outdated_by`: for an outdated memory, the memories whose statements outdated it (SUPERSEDES); `holds`:
// the keys of its facts that a read at $as_of as known at $known_at (both default now) returns (fact_at's
// rule): "I live in Kraków and work at Comarch" is outdated for where one lives, not for where one works
// (graphmem.model.timescope.still_holds); `ahead`: the keys of its plans that start after $as_of and stand
// as known at $known_at (not called off): "we'll be moving to Oxford on 1 February" is not where one lives
// yet (graphmem.model.timescope.not_yet); and a statement whose fact of the asked key holds is the current
// answer (graphmem.model.timescope.backs: of a memory neither outdated nor stating a plan, `holds` lists only
// the key scheme's keys, so a memory of preferences costs no version lookup). Both null for a memory no fact
// was extracted from.
// `withdrawn`: the outdated marks withdrawn before the current one, [from, at, until] lists, read only by an
// audit ($known_at: graphmem.model.timescope.is_outdated; at now none of them holds).
__m__ {.id, .content, .speaker, .session_id, retention: {{retention_now(__m__, coalesce($now, datetime()))}},
       strength: {{strength_now(__m__, coalesce($now, datetime()))}}, .importance, .confidence,
       .access_count, .outdated_from, .outdated_at, .reinstated_at, .outdated_keys,
       outdated_by: CASE WHEN __m__.outdated_from IS NOT NULL THEN [(__m__)<-[:SUPERSEDES]-(later:Memory) | later.id] END,
       holds: CASE WHEN EXISTS { (__m__)<-[:DERIVED_FROM]-() } // a degree: only facts derive from a memory
                   THEN [(__m__)<-[:DERIVED_FROM]-(f:Fact)
                         // of a memory neither outdated nor stating a plan only the key scheme's are read (backs):
                         // the relations of graphmem.model.fact_keys.RELATIONS
                         WHERE (__m__.outdated_from IS NOT NULL
                                OR last(split(coalesce(toStringOrNull(f.key), ''), '/')) IN ['location', 'employer', 'occupation', 'name', 'age', 'partner', 'manager',
                                                                                 'mother', 'father', 'dentist', 'doctor', 'therapist', 'landlord']
                                OR coalesce(toStringOrNull(f.key), '') CONTAINS 'person:' // who someone is (graphmem.model.relations): "Who is Leah?"
                                OR EXISTS { (__m__)<-[:DERIVED_FROM]-(planned:Fact) WHERE planned.planned_at IS NOT NULL })
                           AND f.status <> 'conflicted' AND f.recorded_at <= coalesce($known_at, datetime())
                           AND f.valid_from <= coalesce($as_of, datetime())
                           AND coalesce(coalesce($as_of, datetime()) < {{fact_valid_to(f, coalesce($known_at, datetime()))}}, true)
                           AND NOT EXISTS { // the version fact_at reads there: of two that hold, the later recorded
                             MATCH (g:Fact)
                             WHERE g.user_id = f.user_id AND g.key = f.key AND g.status <> 'conflicted'
                               AND g.recorded_at <= coalesce($known_at, datetime())
                               AND g.valid_from <= coalesce($as_of, datetime())
                               AND coalesce(coalesce($as_of, datetime()) < {{fact_valid_to(g, coalesce($known_at, datetime()))}}, true)
                               AND (g.recorded_at > f.recorded_at
                                    OR (g.recorded_at = f.recorded_at AND g.valid_from > f.valid_from)) }
                         | f.key] END,
       ahead: CASE WHEN EXISTS { (__m__)<-[:DERIVED_FROM]-() } // a degree: only facts derive from a memory
                   THEN [(__m__)<-[:DERIVED_FROM]-(f:Fact)
                         WHERE f.planned_at IS NOT NULL AND f.status <> 'conflicted'
                           AND f.recorded_at <= coalesce($known_at, datetime())
                           AND f.valid_from > coalesce($as_of, datetime())
                           AND coalesce(f.valid_from < {{fact_valid_to(f, coalesce($known_at, datetime()))}}, true)
                         | f.key] END,
       withdrawn: CASE WHEN $known_at IS NOT NULL AND __m__.withdrawn_from IS NOT NULL
                       THEN [__m__.withdrawn_from, __m__.withdrawn_at, __m__.withdrawn_until] END,
       .inhibition, .confirmed, .open_conflicts,
       inhibited_ms: CASE WHEN __m__.inhibition IS NOT NULL AND __m__.inhibited_at IS :: ZONED DATETIME NOT NULL
                          THEN CASE WHEN __m__.inhibited_at.year >= 1 AND __m__.inhibited_at.year <= 9999
                                    THEN __m__.inhibited_at.epochMillis END END,
       text: __m__.search_text, .asked,
       memory_type: CASE WHEN $filtering THEN __m__.memory_type END,
       tags: CASE WHEN $filtering THEN __m__.tags END, metadata: CASE WHEN $with_metadata THEN __m__.metadata END,
       event: CASE WHEN NOT __m__.event_start IS :: ZONED DATETIME NOT NULL OR NOT __m__.event_end IS :: ZONED DATETIME NOT NULL THEN null
                   ELSE CASE WHEN __m__.event_start.year >= 1 AND __m__.event_start.year <= 9999
                               AND __m__.event_end.year >= 1 AND __m__.event_end.year <= 9999
                             THEN [__m__.event_start.epochMillis, __m__.event_end.epochMillis] END END,
       said: CASE WHEN __m__.occurred_at IS :: ZONED DATETIME NOT NULL
                  THEN CASE WHEN __m__.occurred_at.year >= 1 AND __m__.occurred_at.year <= 9999
                            THEN __m__.occurred_at.epochMillis END END,
       cosine: CASE WHEN $embedding IS NULL OR __now__ THEN null
                    ELSE {{typed_cosine(__m__.embedding, $embedding)}} END,
       context_cosine: CASE WHEN $embedding IS NULL OR __now__ OR __m__.context_embedding IS NULL THEN null
                    ELSE {{typed_cosine(__m__.context_embedding, $embedding)}} END,
       situation: CASE WHEN $situation IS NULL THEN null
                    ELSE coalesce({{typed_cosine(__m__.context_embedding, $situation)}}, {{typed_cosine(__m__.embedding, $situation)}}) END}
