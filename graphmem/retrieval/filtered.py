"""Filter, then rank: a filtered recall whose pool comes back short reads more of what the filter admits.

A recall filter (graphmem.model.recall_filter) applies to the ranked pool, the tenant's best few hundred
candidates for the query. A filter that keeps a small share of a large tenant can leave fewer than ``k`` of
them although the tenant holds ``k`` or more matching memories (5,000 memories, 30 tagged "work": a question
about work finds few of the 30 among its pool). Then, and only then, a second read
(``cypher/recall_filtered.cypher``) fetches the readable tenants' best :data:`FETCH_FACTOR` × ``k`` memories
by cosine among those of the filter's types carrying its tags (its metadata narrowed by substrings, checked
exactly in ranking), in the pool's row shape; they join the pool as vector seeds and are ranked with it by the
same :func:`graphmem.retrieval.search.rank`. The common paths (no filter, or a pool with ``k`` admitted
memories) keep their single read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from graphmem.model.recall_filter import RecallFilter
from graphmem.model.timescope import TimeScope

if TYPE_CHECKING:
    from graphmem.retrieval.search import SearchRequest
    from graphmem.store.runtime import Runtime

FETCH_FACTOR = 3
"""The second read returns ``FETCH_FACTOR × k`` memories: at least ``k`` beyond the fewer than ``k`` the pool
held, and room for the metadata check, which the read only approximates."""


def short(row: Mapping[str, Any], req: SearchRequest) -> bool:
    """Whether a filtered recall's pool holds fewer than ``k`` memories its filter admits while the tenants
    may hold more: not when the exact scan made every readable memory with a vector a seed (``scores``,
    the scan's cosines, is then no longer than ``pool_k``), nor without a query vector to rank them by."""
    if req.filters is None or req.embedding is None:
        return False
    admitted = sum(1 for memory in row["memories"] if req.filters.admits(memory))
    if admitted >= req.k:
        return False
    scanned = row.get("scores") or ()
    return not (scanned and len(scanned) <= req.preset.pool_k)


def widen(rt: Runtime, req: SearchRequest, row: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` with the memories the filter admits that the second read adds (one round trip): each a
    memory row with its cosines and a vector seed scored as the exact scan scores one. ``baseline`` keeps
    the pool's own seeds, against which a hit's standout is measured (confidence means the same whether or
    not the read ran)."""
    if req.filters is None or req.embedding is None:  # not short (:func:`short`)
        return dict(row)
    found = rt.store.read("recall_filtered", **params(req, req.filters))
    have = {memory["id"] for memory in row["memories"]}
    added = [r for r in found if r["memory"]["id"] not in have]
    memories = [r["memory"] | {"cosine": r["own"], "context_cosine": r["ctx"]} for r in added]
    seeds = [
        {"id": r["memory"]["id"], "found": [{"source": "vector", "score": r["score"], **_NO_VIA}]}
        for r in added
    ]
    return dict(row) | {
        "memories": [*row["memories"], *memories],
        "seeds": [*row["seeds"], *seeds],
        "baseline": [seed["id"] for seed in row["seeds"]],
    }


def params(req: SearchRequest, only: RecallFilter) -> dict[str, Any]:
    """``recall_filtered``'s parameters: ``req``'s tenants, query vector, time scope and clock, and the
    filter ``only`` (type and tags checked in Cypher, metadata narrowed by ``RecallFilter.needles``)."""
    return {
        "tenants": req.readable,
        "embedding": req.embedding,
        "types": sorted(only.memory_types),
        "tags": list(only.tags),
        "needles": only.needles,
        "limit": FETCH_FACTOR * req.k,
        "filtering": True,
        "with_metadata": only.reads_metadata,
        "now": req.now,
        "situation": req.situation,
        **TimeScope(req.as_of, req.known_at).params(),
    }


_NO_VIA: dict[str, Any] = {"via": None, "via_text": None, "via_asked": None, "vias": []}
"""A seed found by its own key (recall_pool's fields for a summary found by a replaced source)."""
