"""Formation's nearest neighbours: each new vector's most similar live memories of the same tenant, at a
cost that does not grow with the tenant.

Where the server filters inside the vector index (Neo4j 2026.01+, the index lists ``user_id``), the index is
asked for the tenant's own nearest (``FILTERED_FETCH`` × k) whatever the tenant's share of the store.
Neo4j 5.26's vector index cannot filter by tenant inside the index, so there it is asked for more neighbours
than needed and the result is filtered to the tenant (``formation_neighbours_index``). The over-fetch is
adaptive: a first ask of ``FIRST_FETCH`` × k neighbours serves any tenant holding a fair share of the index
(the common case, and the whole index in a one-tenant store) in one round trip; vectors still short of k
tenant neighbours are asked again with ``GROWTH`` times more, up to the preset's ``max_fetch``. Only a
vector still short then (a tenant that is a small share of a large store, or holds fewer than k live
memories) is answered by an exact scan of the tenant in the database (``formation_neighbours``), whose cost
is bounded by the tenant's size, small in exactly that case. A tenant of at most ``SMALL_TENANT`` memories
is scanned exactly from the start (counted with a cap, so the count costs O(1) in the tenant's size): in the
database for a few new vectors. A batch of ``BATCH_SCAN`` or more reads the tenant's vectors once and compares
them all in process instead, when the tenant is small enough that the read costs less than the database's
scan or the index path (the cost constants below, measured here).

Where the index filters, the small-tenant scans are not used: the filtered index answers a vector in ~1 ms
whatever the tenant's size, the database's exact scan costs ~20 µs per (vector, memory) pair, so it is never
the cheaper plan, and no count is needed unless the batch is large enough (``BATCH_SCAN``) that reading a
small tenant once could be cheaper (``FILTERED_READ_RATIO``).

The in-process read takes the vectors as packed Cypher 25 ``VECTOR`` values where the server has them
(2026.01+): numpy arrays, no float objects decoded per coordinate (formation 5-9 % faster, round 39).

Before this, tenants up to 50,000 memories had every live embedding read into Python on every call: O(n) per
call, O(n²) per tenant.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.errors import GraphMemError
from graphmem.model import linking
from graphmem.store.queries import variant
from graphmem.store.runtime import Runtime
from graphmem.store.values import finite_vectors, read_packed

__all__ = [
    "BATCH_SCAN",
    "FILTERED_FETCH",
    "FILTERED_READ_RATIO",
    "FIRST_FETCH",
    "GROWTH",
    "SMALL_TENANT",
    "count_cap",
    "exact",
    "neighbours",
]

FIRST_FETCH = 4
"""First ask, in multiples of k: one round serves a tenant holding about a third of the index or more."""

FILTERED_FETCH = 2
"""First ask, in multiples of k, when the index filters by tenant (Neo4j 2026.01+): every neighbour it returns
is the tenant's, so only the forgotten and superseded it may hold need a margin."""

GROWTH = 8
"""Each further round asks for this many times more (so at most ~3 rounds before max_fetch)."""

SMALL_TENANT = 1_000
"""A tenant with at most this many memories is scanned exactly: that costs at most as much as one index round
of this size, and gives the true top k. Counting stops at this cap, so the check's cost is bounded too."""


READ_COST = 2e-4
"""Seconds to read one memory's vector, id, content and times into process (warm: 369 memories in 0.065 s,
680 in 0.143 s)."""

PAIR_COST = 2e-5
"""Seconds per (new vector, memory) pair of the database's exact scan (18-24 µs measured)."""

INDEX_COST = 4e-3
"""Seconds per new vector of the index path over its rounds (6 ms per vector and round at a fetch of 160; a
500-message batch into a 1,500-memory tenant among 17,000 took 3.8 s over three rounds)."""

IN_PROCESS_MAX = 10_000
"""Largest tenant read into process (its vectors as Python floats: ~120 MB at 10,000 memories)."""

BATCH_SCAN = round(READ_COST / PAIR_COST)
"""From this many new vectors on (10), reading a small tenant once and comparing in process is cheaper than
the database's exact scan. With more than ``INDEX_COST / READ_COST`` (20) memories' worth of vectors per
memory of the tenant, that read is cheaper than the index path too: a batch of ``B`` vectors reads tenants of
up to ``20 B`` memories (at most ``IN_PROCESS_MAX``) instead of asking the index; every path's cost stays
bounded per message, none grows with the tenant past the bound."""

FILTERED_READ_RATIO = 10
"""Where the index filters by tenant, the largest tenant read into process, in memories per new vector: the
read costs 0.065-0.09 ms a memory, the filtered index 0.65-1.1 ms a vector (round 18, Neo4j 2026.01.4,
``benchmarks/formation_profile.py paths``, batches of 1/10/100 vectors against tenants of 200-4,000
memories: 4,000 memories read in 266-362 ms, 10 vectors asked in 11-13 ms, 100 in 108-120; a lab run the same
morning, 20-25 and 72-88 ms). Where the two cross, 10-14 memories a vector; the lower end keeps the read to
where it clearly wins. A batch of 10 reads tenants of up to 100 memories."""


def _neighbour(row: dict[str, Any], cosine: float) -> linking.Neighbour:
    return linking.Neighbour(
        id=str(row["id"]),
        cosine=cosine,
        content=str(row["content"] or ""),
        occurred_at=_occurred(row),
        session_id=row["session_id"],
    )


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _occurred(row: dict[str, Any]) -> datetime | None:
    """A row's occurred_at: epoch microseconds (``occurred_us``: every neighbour read returns them, the driver
    decodes a datetime in ~35 µs), or a datetime."""
    micros = row.get("occurred_us")
    if isinstance(micros, int):
        return EPOCH + timedelta(microseconds=micros)
    return row.get("occurred_at")


def _hits(rows: list[dict[str, Any]]) -> list[linking.Neighbour]:
    return [_neighbour(h, linking.neo4j_to_cosine(float(h["score"]))) for h in rows]


def _exact(
    rt: Runtime, user_id: str, vectors: list[list[float]], pending: list[int], k: int
) -> dict[int, list[linking.Neighbour]]:
    payload = [{"i": i, "embedding": vectors[i]} for i in pending]
    rows = rt.store.read("formation_neighbours", user_id=user_id, vectors=payload, k=k)
    return {r["i"]: _hits(r["hits"]) for r in rows}


def exact(rt: Runtime, user_id: str, vectors: list[list[float]], k: int) -> list[list[linking.Neighbour]]:
    """The true top ``k`` of every vector among the tenant's live memories, scanned in the database."""
    found = _exact(rt, user_id, vectors, list(range(len(vectors))), k)
    return [found.get(i, []) for i in range(len(vectors))]


def _in_process(
    rt: Runtime, user_id: str, vectors: list[list[float]], k: int, cap: int, *, packed: bool = False
) -> list[list[linking.Neighbour]]:
    """The exact top ``k`` of every vector among the tenant's live memories (at most ``cap``), in process.
    ``packed``: read them as Cypher 25 ``VECTOR`` values (numpy arrays: no float objects decoded and
    converted), or as lists when a stored vector is not finite in float32."""
    width = len(vectors[0])
    rows = read_packed(rt.store.read, "formation_tenant_vectors", packed=packed, user_id=user_id, cap=cap,
                       dimension=width)  # fmt: skip
    rows, stored = finite_vectors(rows, width)
    if not rows:
        return [[] for _ in vectors]
    cosines = linking.cross_cosines(vectors, stored)
    return [
        [_neighbour(rows[j], float(cosines[i, j])) for j in linking.top_k(cosines[i], k)]
        for i in range(len(vectors))
    ]


def count_cap(rt: Runtime, batch: int) -> int:
    """How far the neighbour plan for ``batch`` new vectors needs the tenant counted (0: not at all). A caller
    that reads the count itself (formation's first read) asks up to ``count_cap + 1``."""
    return _cap(rt.vector_filter.ready(rt.store), batch)


def _cap(filtered: bool, batch: int) -> int:
    if filtered:
        return min(IN_PROCESS_MAX, batch * FILTERED_READ_RATIO) if batch >= BATCH_SCAN else 0
    return max(SMALL_TENANT, min(IN_PROCESS_MAX, int(batch * INDEX_COST / READ_COST)))


def neighbours(
    rt: Runtime, user_id: str, vectors: list[list[float]], k: int, *, counted: tuple[int, int] | None = None
) -> list[list[linking.Neighbour]]:
    """Up to ``k`` neighbours per vector, most similar first (approximate where the index answers).
    ``counted``: (the tenant's memories counted up to ``cap + 1``, ``cap``), when the caller has read it
    with :func:`count_cap`; used only if the plan's cap is still that one (the index may have stopped or
    started filtering in between). While the vector index is missing or populating, the tenant is scanned
    exactly."""
    if not vectors:
        return []
    if not rt.vector_filter.online(rt.store):  # missing or populating: the index would block, then fail
        return exact(rt, user_id, vectors, k)
    try:
        return _planned(rt, user_id, vectors, k, counted)
    except GraphMemError:
        rt.vector_filter.reset()  # another process may be rebuilding an index: scan if so
        if rt.vector_filter.online(rt.store):
            raise
        return exact(rt, user_id, vectors, k)


def _planned(
    rt: Runtime, user_id: str, vectors: list[list[float]], k: int, counted: tuple[int, int] | None
) -> list[list[linking.Neighbour]]:
    filtered = rt.vector_filter.ready(rt.store)
    cap = _cap(filtered, len(vectors))
    if cap == 0:
        n = 0
    elif counted is not None and counted[1] == cap:
        n = counted[0]
    else:
        n = _count(rt, user_id, cap)
    if filtered:  # the index answers, unless the batch is large and the tenant small enough to read
        if cap and n <= cap:
            return _in_process(rt, user_id, vectors, k, cap, packed=True)
        name = variant("formation_neighbours_index", filtered=True)
        return _indexed(rt, user_id, vectors, k, name, FILTERED_FETCH * k)
    if len(vectors) >= BATCH_SCAN and n <= cap:  # one read, then exact in process
        return _in_process(rt, user_id, vectors, k, cap)
    if n <= SMALL_TENANT:  # exact, and no dearer than one index round
        return exact(rt, user_id, vectors, k)
    return _indexed(rt, user_id, vectors, k, "formation_neighbours_index", FIRST_FETCH * k)


def _count(rt: Runtime, user_id: str, cap: int) -> int:
    """The tenant's memories, counted up to ``cap + 1``."""
    return int(rt.store.read("formation_tenant_small", user_id=user_id, cap=cap + 1)[0]["n"])


def _indexed(
    rt: Runtime, user_id: str, vectors: list[list[float]], k: int, name: str, fetch: int
) -> list[list[linking.Neighbour]]:
    """The index path: rounds of growing fetches for the vectors still short of ``k`` where the index may hold
    more of the tenant; the exact scan for any still short after ``max_fetch``."""
    out: list[list[linking.Neighbour]] = [[] for _ in vectors]
    pending = list(range(len(vectors)))
    max_fetch = max(rt.settings.preset().max_fetch, fetch)
    while pending:
        payload = [{"i": i, "embedding": vectors[i]} for i in pending]
        rows = rt.store.read(name, user_id=user_id, vectors=payload, k=k, fetch=fetch)
        pending = []
        for r in rows:
            out[r["i"]] = _hits(r["hits"])
            if len(r["hits"]) < k and r["seen"] >= fetch:  # the index may hold more of this tenant
                pending.append(r["i"])
        if fetch >= max_fetch:
            break
        fetch = min(fetch * GROWTH, max_fetch)
    if pending:
        for i, hits in _exact(rt, user_id, vectors, pending, k).items():
            out[i] = hits
    return out
