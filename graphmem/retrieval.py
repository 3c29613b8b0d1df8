"""The read path: tenant-scoped vector search, planned by tenant size."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .config import RetrievalPreset
from .runtime import Runtime


@dataclass(frozen=True)
class VectorPlan:
    """How to find a tenant's top-k by cosine. Pure data, decided by :func:`plan_vector_search`."""

    method: str  # "exact" | "index"
    fetch: int  # neighbours to request from the ANN index (index method only)


def plan_vector_search(user_count: int, total: int, k: int, preset: RetrievalPreset) -> VectorPlan:
    """Exact scan for small tenants (true top-k); ANN with over-fetch sized to the tenant's share otherwise.

    Neo4j 5.26's vector index cannot filter by tenant inside the index, so asking it for k neighbours
    would return other users' memories. A tenant holding a share s of all memories needs about k / s
    neighbours to see k of its own; we ask for ``overfetch`` times that, and the caller falls back to the
    exact scan when the filtered result is still short.
    """
    if user_count <= preset.exact_scan_max or total <= 0:
        return VectorPlan("exact", 0)
    share = user_count / total
    fetch = math.ceil(k / share * preset.overfetch)
    return VectorPlan("index", max(k, min(fetch, total)))


def vector_candidates(
    rt: Runtime, embedding: list[float], *, user_id: str, k: int, as_of: datetime | None
) -> tuple[list[dict[str, Any]], str]:
    """The user's top-k memories by cosine, and the method used ("exact" or "index")."""
    counts = rt.store.read("user_memory_count", user_id=user_id)[0]
    plan = plan_vector_search(counts["user_count"], counts["total"], k, rt.settings.preset())
    if plan.method == "index":
        rows = rt.store.read(
            "recall_vector_index", user_id=user_id, embedding=embedding, k=k, fetch=plan.fetch, as_of=as_of
        )
        if len(rows) >= min(k, counts["user_count"]):
            return rows, "index"
    rows = rt.store.read("recall_exact", user_id=user_id, embedding=embedding, k=k, as_of=as_of)
    return rows, "exact"
