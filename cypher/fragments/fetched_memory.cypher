// Fragment (an expression, included as {{fetched_memory(m, $now)}}): memory __m__ as a reader receives it,
// its properties as fragments/property_pairs (date-times packed) with retention and strength derived at
// __now__ and their coefficients left out (so that no reader derives them twice). Read by memory_fetch
// (recall's hits, `memories.get`), memory_list (its pages) and context_read (a context's hits).
{__properties__:
   {{property_pairs(__m__, ['embedding', 'context_embedding', 'retention_scale', 'retention_rate', 'strength_rate', 'strength_floor'])}},
 retention: {{retention_now(__m__, __now__)}},
 strength: {{strength_now(__m__, __now__)}}}
