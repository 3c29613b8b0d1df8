// Fragment (a predicate, included as {{keyless_memory(m, null)}}: it reads no clock): whether memory __m__
// is one formation wrote before it stored its search keys (no search_text: graphmem before 2026-12-01), which
// a re-embedding keys (reembed_memory_page) and `graphmem doctor` counts (memory_keys_missing). Not an updated
// memory (an update clears its keys on purpose: its entity edges are the old words') nor a LangGraph store
// item or a core block (formation never keyed them).
__m__.search_text IS NULL AND __m__.core_label IS NULL AND __m__.updated_at IS NULL AND NOT __m__:StoreItem
