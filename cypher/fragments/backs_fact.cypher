// Fragment (an expression, included as {{backs_fact(m, null)}}; the second argument is unused): whether a
// current fact derives from memory __m__, or from a memory merged into it (the duplicate that consolidate
// superseded may be the one the fact's DERIVED_FROM names): its statement is the evidence for what is known
// now, which no job of the engine forgets, resolves away or deletes. Specification:
// graphmem.model.lifecycle.MemoryState.backs_fact.
EXISTS { (__m__)<-[:MERGED_INTO*0..]-(:Memory)<-[:DERIVED_FROM]-(gm_fact:Fact)
         WHERE gm_fact.status = 'current' AND gm_fact.expired_at IS NULL }
