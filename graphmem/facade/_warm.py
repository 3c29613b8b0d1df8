"""Preparing a long-running process: what :meth:`graphmem.GraphMemory.warm` does (the REST API, the MCP server
and the worker call it at start-up)."""

from __future__ import annotations

import gc
import time

from graphmem.embedding import Embedder, embed_checked
from graphmem.formation.warmup import warm_formation
from graphmem.retrieval.warmup import warm_plans
from graphmem.store.runtime import Runtime

__all__ = ["warm"]


def warm(rt: Runtime, embedder: Embedder, *, plans: bool = True) -> float:
    """Load the embedding model now; with ``plans``, plan recall's and formation's statements on the server
    too, so that the first request pays for neither (graphmem.retrieval.warmup: a first recall ~1 s of
    planning on a new server; graphmem.formation.warmup: a first write ~5 s). Nothing is written.

    Then everything the start-up made (modules, the model's wrappers, settings; ~78,000 objects) is frozen out
    of Python's cyclic garbage collector (``gc.freeze``): each full collection no longer walks it, which took
    ~15 ms off recall's p95 at the development size and ~8 ms at a 100,000-memory tenant (docs/recall.md). The
    objects frozen are the process's own start-up state, kept for its lifetime anyway. Returns the seconds
    spent."""
    started = time.perf_counter()
    eager = getattr(embedder, "warm", None)
    if callable(eager):
        eager()
    else:
        embed_checked(embedder, ["warm-up"])  # a wrong dimension raises EmbedderError here, not mid-request
    if plans:
        warm_plans(rt)
        warm_formation(rt)
    gc.collect()
    gc.freeze()
    return time.perf_counter() - started
