"""Recall's vector plan: an exact scan of the tenant or the two ANN indexes (own and context key), whichever
the measured costs below say is cheaper; the indexes filter by tenant inside the index where the server can
(Neo4j 2026.01+), and are over-fetched and filtered after otherwise. Pure: :func:`plan_vector_search`
decides, ``cypher/recall_pool`` runs the chosen plan (docs/recall.md, the pool stage)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from graphmem.config import RetrievalPreset

__all__ = [
    "FETCH_COST",
    "FILTERED_COST",
    "INDEX_COST",
    "PROJECTED",
    "SCAN_COST",
    "VectorPlan",
    "plan_vector_search",
]


@dataclass(frozen=True)
class VectorPlan:
    """How to find a tenant's top-k by cosine. Pure data, decided by :func:`plan_vector_search`."""

    method: (
        str  # "exact" | "index" (over-fetched, filtered after) | "filtered" (tenant filtered in the index)
    )
    fetch: int  # neighbours to request from each ANN index (per readable tenant when filtered)


SCAN_COST = 26e-6
"""Seconds per memory of the exact scan, which compares the query with both keys of every readable memory
(a 680-memory tenant: 18 ms above an empty round trip, both keys)."""

INDEX_COST = 6e-3
"""Seconds per ANN index query before its neighbours (k = 100: 5-7 ms above a round trip that sends the
vector)."""

FETCH_COST = 9e-6
"""Seconds per neighbour an ANN query returns and the pool filters to the tenant (3 µs in a 2,759-memory
store, 9 µs at 100,000: a fetch of 2,000 took 26 ms, one of 100 9 ms)."""

FILTERED_COST = 2e-3
"""Seconds per ANN query that filters by tenant inside the index, its neighbours included (Neo4j 2026.01.4,
``SEARCH ... WHERE m.user_id = ... LIMIT 200``: 3 ms on the own-key index of a 1M store, 1 ms on the
context-key index where the tenant holds few vectors; ``INDEX_COST`` and ``FETCH_COST`` were measured on
5.26, which over-fetched and filtered after). With it the planner takes the index from about 550 memories
on; measured (round 27, recall p50 with both plans alternated question by question, identical top 10 in
every one of 900 recalls): even at 369-419 memories, 2-4 ms faster at 628-680, 6.5 ms at 1,000 (the small
tenant of the 1M store: 30.7 against 37.2 ms, p95 38.8 against 53.8)."""

PROJECTED = 4
"""The pool's projection scores about this many rows per pool slot (the pool and its one-edge neighbourhood:
~400 rows at LoCoMo size for ``pool_k`` = 100); the index path computes their cosines there, the exact scan
of a small tenant already has them."""


def plan_vector_search(
    user_count: int,
    total: int,
    k: int,
    preset: RetrievalPreset,
    *,
    time_scoped: bool = False,
    filtered: bool = False,
    filters_time: bool = False,
    online: bool = True,
    tenants: int = 1,
) -> VectorPlan:
    """The cheaper of an exact scan of the tenant (true top-k) and the two ANN indexes (own and context key)
    over-fetched by the tenant's share of the store, by the cost constants above.

    Neo4j 5.26's vector index cannot filter by tenant inside the index, so asking it for k neighbours
    would return other users' memories. A tenant holding a share s of all memories needs about k / s
    neighbours to see k of its own; we ask for ``overfetch`` times that. The exact scan costs the tenant's
    size; the index path costs its fetch, whatever the tenant's size. A tenant above ``exact_scan_max``
    is never scanned unless the index would need more than ``max_fetch`` neighbours (a small share of a
    huge store, where the scan is the cheaper of two bad plans); on the LoCoMo development split both
    plans rank the same (R@10 0.784 exact, 0.783 forced to the index).

    When the indexes filter by tenant (``filtered``: Neo4j 2026.01+, both indexes list ``user_id``), the
    tenant's share no longer matters: each index is asked for ``overfetch`` × k of the tenant's own
    memories (the margin covers those the pool drops: forgotten, expired, superseded), so the index path
    costs the same for a tenant of 1% or 100% of the store, and a huge tenant never falls back to a scan;
    it asks each readable tenant apart (``tenants``: a user reading its org's scope too asks twice as often).

    A time-scoped read (``as_of`` or ``known_at``) is planned like any other where the indexes also filter
    by both times (``filters_time``: both list ``occurred_at`` and ``recorded_at``), since they then return
    the tenant's nearest among the memories the read may see. Otherwise it scans whenever the tenant is
    within ``exact_scan_max``: the index's neighbours would be filtered by time after the fetch, and an
    audit of an early time would find few of the memories it may see among them.

    While an index is missing or still populating (``online`` false: a migration rebuilds it), the tenant
    is scanned whatever its size: slower on a large tenant, but the index would block the query and fail it.
    """
    if user_count <= 0 or total <= 0 or not online:
        return VectorPlan("exact", 0)
    if filtered:  # each tenant's own nearest, whatever its share
        fetch = max(k, math.ceil(k * preset.overfetch))
    else:
        share = min(1.0, user_count / total)
        fetch = max(k, min(math.ceil(k / share * preset.overfetch), total))
        if fetch > preset.max_fetch:  # a small share of a huge index: scanning the tenant is cheaper
            return VectorPlan("exact", 0)
    scan = user_count * SCAN_COST
    # the cost of one ANN query, with its neighbours; a filtering index is asked once per readable tenant
    ann = FILTERED_COST * max(1, tenants) if filtered else INDEX_COST + fetch * FETCH_COST
    index = 2 * ann + PROJECTED * k * SCAN_COST
    scan_for_time = time_scoped and not (filtered and filters_time)
    if user_count <= preset.exact_scan_max and (scan <= index or scan_for_time):
        return VectorPlan("exact", 0)
    return VectorPlan("filtered" if filtered else "index", fetch)
