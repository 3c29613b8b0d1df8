"""The steps of the six maintenance jobs (decay, forget, consolidate, associate, promote, review).

Each job is a short sequence of named, set-based Cypher statements batched with ``CALL { } IN TRANSACTIONS``
(run in auto-commit transactions, or all inside one transaction for a dry run); Python never loops over
memories. Every step is idempotent at a given ``now``. :mod:`graphmem.dynamics.jobs` runs and records them.
The two per-tenant jobs (topics, adapt) have their steps in :mod:`graphmem.dynamics.tenant_jobs`.
"""

from __future__ import annotations

import bisect
import logging
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.automation.config import JOB_NAMES, AutomationConfig
from graphmem.automation.control import Automation
from graphmem.dynamics.tenant_jobs import adapt_job, topics_job
from graphmem.model import factors as factor_model
from graphmem.model import heuristics, knn
from graphmem.model.lifecycle import PRIORITY_WEIGHT
from graphmem.store.driver import Tx
from graphmem.store.migrations import server_filters_vectors
from graphmem.store.queries import STRICT, UNBATCHED, variant
from graphmem.store.runtime import Runtime
from graphmem.store.values import PackedVector, finite_vectors, read_packed

logger = logging.getLogger(__name__)

ALL_USERS_FETCH = 1000
"""Vector-index neighbours fetched per memory by the associate fallback when it runs for all users."""


KNN_CONCURRENCY = max(1, min(4, os.cpu_count() or 1))
"""Threads for GDS kNN: the machine's cores, at most 4 (the limit of GDS Community)."""

WRITE_CONCURRENCY = 2
"""Inner transactions writing the full pass's edges at once (Cypher 25): 100,000 memories' 358,000 edges in
14.5 s against 19.3 s one at a time (docs/dynamics.md); more deadlock on shared memories and retry. Round 35
measured the other way on the same kind of machine (379,143 edges: 16.0-19.9 s at two, 13.1-17.1 s at one,
five alternated pairs; docs/benchmarks.md): within the machine's swing, so unchanged."""

PAIRS_PER_STATEMENT = 50_000
"""Pairs sent per write statement: bounds the parameter (~5 MB), each statement batched inside."""


@dataclass(frozen=True)
class Context:
    rt: Runtime
    automation: Automation
    config: AutomationConfig
    user_id: str | None
    now: datetime
    run_id: str
    tx: Tx | None = None  # a dry run: every step inside this one transaction, rolled back at the end

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.tx.run(name, **params) if self.tx is not None else self.rt.store.read(name, **params)

    def run_write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if self.tx is not None:  # a refused statement aborts the transaction: no rerun, checked vectors
            return self.tx.run(UNBATCHED + STRICT + name, **params)
        return self.rt.store.write_auto(name, **params)

    def params(self, **extra: Any) -> dict[str, Any]:
        return {
            "user_id": self.user_id,
            "now": self.now,
            "p": self.config.dynamics.cypher(),
            "batch": self.config.batch_size,
            **extra,
        }

    def write(self, name: str, **extra: Any) -> dict[str, Any]:
        rows = self.run_write(name, **self.params(**extra))
        return rows[0] if rows else {}


Step = Callable[[Context], dict[str, Any]]


# --- the jobs --------------------------------------------------------------------------------------
def _decay(ctx: Context) -> list[Step]:
    return [lambda c: c.write("dynamics_decay"), lambda c: c.write("dynamics_decay_edges")]


def _forget(ctx: Context) -> list[Step]:
    return [
        lambda c: {"soft_forgotten": c.write("forget_soft")["forgotten"]},
        lambda c: {"capacity_forgotten": c.write("forget_capacity", weights=PRIORITY_WEIGHT)["forgotten"]},
        lambda c: {"hard_deleted": c.write("forget_hard")["deleted"]},
        lambda c: c.write("forget_edges"),
    ]


FACTOR_PAGE = 2000
"""Memories whose strength factors are computed per round trip (only new memories are ever pending)."""


def _factors(ctx: Context) -> dict[str, Any]:
    """Compute the emotion/presentation/coherence factors of memories that lack them (pure functions in
    graphmem.model.factors), written with one UNWIND per page to the nodes read (by element id: a memory
    whose id was removed or set by hand to a value that does not read back equal is written all the same;
    matched by ``m.id`` it stayed pending and the step read the same page forever). A page that holds no
    memory not seen before in this run (:func:`_unseen`) ends the step whatever the store does."""
    done, seen = 0, set[str]()
    while True:
        rows = _unseen(ctx.read("consolidate_factors_pending", user_id=ctx.user_id, limit=FACTOR_PAGE), seen)
        if not rows:
            return {"factored": done}
        sessions = sorted({r["session"] for r in rows if r["session"] is not None})
        places = _positions(
            rows, ctx.read("consolidate_session_times", sessions=sessions) if sessions else []
        )
        out = [_factor_row(r, *place) for r, place in zip(rows, places, strict=True)]
        ctx.run_write("consolidate_factors_set", rows=out, now=ctx.now)
        done += len(out)


def _unseen(rows: list[dict[str, Any]], seen: set[str]) -> list[dict[str, Any]]:
    """The pending rows whose memory (``key``, its element id) this run has not factored yet, the new keys
    added to ``seen``: the factors step's paging ends when a page brings nothing new."""
    fresh = [r for r in rows if r["key"] not in seen]
    seen.update(r["key"] for r in fresh)
    return fresh


def _positions(rows: list[dict[str, Any]], sessions: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Each pending memory's place in its session: how many of the session's memories were said strictly
    before it, and the session's size ((0, 0) without a session; position 0 without a readable time). Only
    times that are [epoch seconds, nanosecond] pairs of integers are placed (:func:`_instant`): a pair of
    nulls (a memory without any time, which the statements' ``IS :: ZONED DATETIME`` let through before
    round 61) failed the sort with a raw TypeError, and the job for the tenant every run."""
    times = {s["session"]: sorted(t for t in map(_instant, s["times"]) if t is not None) for s in sessions}
    sizes = {s["session"]: int(s["size"]) for s in sessions}
    places = []
    for r in rows:
        at = _instant(r["at"])
        before = bisect.bisect_left(times.get(r["session"], []), at) if at is not None else 0
        places.append((before, sizes.get(r["session"], 0)))
    return places


def _instant(value: Any) -> tuple[int, int] | None:
    """A time as read by the factors step's statements, [epoch seconds, nanosecond], as a sortable pair;
    anything else (null, a pair holding a null) as None."""
    if isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return value[0], value[1]
    return None


def _factor_row(row: dict[str, Any], position: int, session_size: int) -> dict[str, Any]:
    """The strength factors of one pending memory: emotion, presentation and coherence
    (graphmem.model.factors), serial position and depth of processing (graphmem.model.heuristics)."""
    content = row["content"] or ""
    return {
        "key": row["key"],
        **factor_model.factors(content, row["similarities"]),
        "serial": heuristics.serial_position(position, session_size),
        "depth": heuristics.depth(len(content.split()), int(row["entities"]), int(row["links"])),
    }


def _consolidate(ctx: Context) -> list[Step]:
    return [
        _factors,
        lambda c: c.write("consolidate_duplicates"),
        lambda c: c.write("consolidate_move_edges"),
        lambda c: c.write("consolidate_detect_conflicts"),
        lambda c: c.write("consolidate_conflicts"),
        lambda c: c.write("consolidate_open_conflicts"),
        lambda c: c.write("consolidate_rivalry"),
        lambda c: c.write(
            "consolidate_summaries",
            max_chars=c.rt.settings.max_content_chars,
            dimension=c.rt.embedder.dimension,
        ),
        lambda c: c.write("compact_recalls"),
        lambda c: c.write("compact_orphans"),
    ]


def _associate_knn(ctx: Context, tenant: dict[str, Any], cypher25: bool) -> int:
    """One tenant's full pass in process: its live vectors read once, each memory's k nearest found by
    :func:`graphmem.model.knn.nearest_pairs` (exact, or an inverted file above 20,000 memories), written
    as RELATED_TO edges in batches. ``cypher25``: the server runs Cypher 25 (packed vectors, concurrent
    writes that retry). Edges written."""
    ids, vectors = _read_vectors(ctx, tenant["user_id"], packed=cypher25 and ctx.tx is None)
    if len(ids) < 2:
        return 0
    dynamics = ctx.config.dynamics
    pairs = knn.nearest_pairs(vectors, dynamics.associate_k, dynamics.associate_similarity)
    edges = 0
    for lo in range(0, len(pairs), PAIRS_PER_STATEMENT):
        written = ctx.run_write(
            variant("associate_write_pairs", filtered=cypher25),
            pairs=[[ids[a], ids[b], s] for a, b, s in pairs[lo : lo + PAIRS_PER_STATEMENT]],
            user_id=tenant["user_id"],
            now=ctx.now,
            batch=ctx.config.batch_size,
            concurrency=WRITE_CONCURRENCY,
        )
        edges += int(written[0]["edges"]) if written else 0
    return edges


def _read_vectors(ctx: Context, user_id: str, *, packed: bool) -> tuple[list[str], knn.Matrix]:
    """A tenant's element ids and vectors as float32 rows, rows with a non-finite coordinate dropped.
    ``packed``: as Cypher 25 ``VECTOR`` values (~60 % of the time); a stored vector that ``vector()`` refuses
    fails that statement, and the rows are read again as lists (a dry run's transaction would not survive
    the failure, so it reads lists)."""
    dimension = ctx.rt.embedder.dimension
    rows = read_packed(
        ctx.run_write, "associate_read_vectors", packed=packed, user_id=user_id, dimension=dimension
    )
    rows, vectors = finite_vectors(rows, dimension)
    return [r["id"] for r in rows], vectors


def _associate_gds(ctx: Context, tenant: dict[str, Any]) -> int:
    """One tenant's full pass by GDS kNN on the server (a tenant whose vectors exceed the job's memory
    budget, ``associate_in_process_max``). Edges written."""
    graph = f"graphmem-associate-{ctx.run_id}"
    ctx.run_write("associate_gds_drop", graph=graph)
    try:
        ctx.run_write(
            "associate_gds_project",
            graph=graph,
            user_id=tenant["user_id"],
            dimension=ctx.rt.embedder.dimension,
        )
        rows = ctx.run_write(
            "associate_gds_knn",
            graph=graph,
            k=ctx.config.dynamics.associate_k,
            p=ctx.config.dynamics.cypher(),
            now=ctx.now,
            batch=ctx.config.batch_size,
            concurrency=KNN_CONCURRENCY,
        )
        return int(rows[0]["edges"]) if rows else 0
    finally:
        ctx.rt.store.write_auto("associate_gds_drop", graph=graph)  # the catalog is not transactional


def _associate_full(ctx: Context, live: int) -> dict[str, Any]:
    """Every tenant's full pass (most of its memories new): in process, or GDS kNN for a tenant above the
    in-process budget when GDS is installed; then its memories are marked linked (associate_mark). ``live``:
    the one tenant's live embedded memories, already counted (every tenant: counted here)."""
    budget = ctx.config.dynamics.associate_in_process_max
    methods: set[str] = set()
    edges = 0
    if ctx.user_id is None:
        tenants = ctx.rt.store.read("tenants_with_memories", user_id=None, min=2)
    else:
        tenants = [{"user_id": ctx.user_id, "live": live}] if live >= 2 else []
    # the server's version, not the vector indexes' state: the full pass reads the vectors themselves
    cypher25 = bool(tenants) and PackedVector is not None and server_filters_vectors(ctx.rt)
    # whether GDS is there (two reads) matters only for a tenant above the budget
    gds = any(int(t["live"]) > budget for t in tenants) and ctx.automation.probe()["gds"]
    for tenant in tenants:  # one tenant at a time: two users' memories are never linked
        on_server = gds and int(tenant["live"]) > budget
        edges += _associate_gds(ctx, tenant) if on_server else _associate_knn(ctx, tenant, cypher25)
        methods.add("gds_knn" if on_server else "knn")
        ctx.run_write("associate_mark", user_id=tenant["user_id"], now=ctx.now, batch=ctx.config.batch_size)
    return {"method": "+".join(sorted(methods)) or "knn", "tenants": len(tenants), "edges": edges}


def vector_fetch(k: int, user_count: int, total: int) -> int:
    """Neighbours to ask the shared vector index for so that about k of them belong to the tenant."""
    if user_count <= 0 or total <= 0:
        return k
    return int(min(total, max(4 * k, math.ceil(2 * k * total / user_count))))


def _associate_vector(ctx: Context) -> dict[str, Any]:
    if not ctx.rt.vector_filter.online(ctx.rt.store):  # the pending memories stay pending for the next run
        return {"method": "waiting", "fallback_reason": "vector_index_not_online", "memories": 0, "edges": 0}
    k = ctx.config.dynamics.associate_k
    filtered = ctx.rt.vector_filter.ready(ctx.rt.store)
    if filtered:  # the index answers from the tenant's own memories: k, the memory itself, a margin
        fetch = 2 * (k + 1)
    elif ctx.user_id is None:
        fetch = ALL_USERS_FETCH
    else:
        counts = ctx.rt.store.read("user_memory_count", tenants=[ctx.user_id])[0]
        fetch = vector_fetch(k, int(counts["user_count"]), int(counts["total"]))
    row = ctx.write(
        variant("associate_vector", filtered=filtered), k=k, fetch=fetch, dimension=ctx.rt.embedder.dimension
    )
    return {"method": "vector_index", "fallback_reason": "incremental", **row}


def _associate(ctx: Context) -> list[Step]:
    """Incremental: only memories not linked yet are searched against the vector index; a full pass (in
    process, :func:`_associate_full`) when most of the live memories are new (a first run)."""

    def step(c: Context) -> dict[str, Any]:
        counts = c.rt.store.read("associate_pending", user_id=c.user_id)[0]
        pending, live = int(counts["pending"]), int(counts["live"])
        if 2 * pending > live:
            return {**_associate_full(c, live), "pending": pending}
        return {**_associate_vector(c), "pending": pending}

    return [step]


def _promote(ctx: Context) -> list[Step]:
    return [lambda c: c.write("promote_common")]


def _review(ctx: Context) -> list[Step]:
    return [lambda c: c.write("review_schedule")]


JOBS: dict[str, Callable[[Context], list[Step]]] = {
    "decay": _decay,
    "forget": _forget,
    "consolidate": _consolidate,
    "associate": _associate,
    "promote": _promote,
    "review": _review,
    "topics": topics_job,
    "adapt": adapt_job,
}
assert tuple(JOBS) == JOB_NAMES
