"""Compile recall's query plans before the first request.

Neo4j plans a statement on its first run and caches the plan per statement text and per shape of its
parameters (a null where a list or a string was, a tenant list of another length). ``recall_pool`` is one
large statement: its first run on a fresh server spends 1.2-1.6 s planning and compiling (measured on
this machine), and each new parameter shape as much again; recall's write transaction adds ~0.2 s more.
Without a warm-up that cost lands on the first recall a user makes, and on a server just started under load
it piles up into seconds of tail latency.

:func:`warm_plans` runs recall's own code for a tenant that cannot exist (its id holds a control character,
which every public entry point refuses), so every statement is planned with exactly the parameter types a
real recall sends and nothing is found; recall's write transaction (reinforcement, co-recall, inhibition
of competitors, the recall record, the row fetch) is rehearsed for made-up hits and rolled back, so nothing
is written. Two more things key the server's plan cache and are rehearsed too: the size range of a list
parameter, and whether the transaction already holds changes (a real recall's reinforcement has written
before its other statements run). The REST API and the MCP server call it at start-up
(:meth:`graphmem.GraphMemory.warm`, which a library user may call once after connecting).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from graphmem.errors import GraphMemError
from graphmem.model.metamemory import MAX_COMPETITORS
from graphmem.model.people import is_first_name
from graphmem.model.recall_filter import RecallFilter
from graphmem.retrieval import reference
from graphmem.retrieval.effects import effects_of
from graphmem.retrieval.ranked import Ranked, RankedHit
from graphmem.retrieval.recall import RecallRequest, recall, with_rows
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime, TenantProfile

logger = logging.getLogger(__name__)

__all__ = ["WARM_INDEXED", "WARM_K", "WARM_QUERIES", "WARM_TENANT", "warm_plans"]

WARM_TENANT = "\x00graphmem-warm-up"
"""A tenant no caller can name (control characters are refused in ids), so the warm-up finds nothing."""

WARM_QUERIES = ("where did I travel last spring?", "what")
"""One query with content words (the full-text branch gets a Lucene query) and one without (it gets null):
the two parameter shapes of a present-time recall of one tenant."""


WARM_INDEXED = TenantProfile(user_count=100_000, total=100_000)
"""The profile the warm-up gives its tenant for the second round: a tenant this large is searched through the
vector indexes (``filtered:recall_pool`` where they filter by tenant, the over-fetching text otherwise), a
statement of its own; the empty tenant's real profile plans the exact scan."""

WARM_FILTER = RecallFilter(tags=("warm-up",))
"""A filter the warm-up tenant's empty pool leaves short: its recall plans the filtered read
(graphmem.retrieval.filtered), ~0.2 s cold."""

WARM_K = 10
"""Hits a warm-up recall returns: the default ``k`` of recall, the REST API and the MCP tool."""


def warm_plans(rt: Runtime) -> float:
    """Plan recall's statements for the common parameter shapes; returns the seconds spent. Writes nothing:
    the warm-up tenant holds nothing, so recall returns before its write, and the write transaction is
    rehearsed and rolled back. A failure is logged, never raised: a cold plan is slower, not wrong."""
    started = time.perf_counter()
    now = datetime.now(UTC)
    try:
        for profile in (None, WARM_INDEXED):  # the exact scan's plan, then the index's (another statement)
            if profile is not None:
                rt.tenant_profiles.put(WARM_TENANT, profile)
            for query in WARM_QUERIES:
                recall(rt, _request(query), now=now)
        recall(rt, replace(_request(WARM_QUERIES[0]), filters=WARM_FILTER), now=now)  # recall_filtered
        rt.store.rehearse(_effects(rt, now, changes=False))  # record and fetch: reinforce=False
        # the effects' lists travel in one map (store.values.list_map): one plan whatever their sizes; the
        # rows' read takes the returned ids as a list of a default recall's size
        rt.store.rehearse(_changed(_effects(rt, now, changes=True)))
        reference.vectors(rt.embedder)  # a small tenant's confidence reads them (~0.4 s to embed once)
        is_first_name("")  # a question's opener is a name if a given name (~0.5 s to read faker's once)
    except GraphMemError as exc:
        logger.warning("warming recall's query plans failed (recall will plan on first use): %s", exc)
    finally:
        rt.tenant_profiles.drop(WARM_TENANT)  # the made-up profile is not left behind
    return time.perf_counter() - started


def _request(query: str) -> RecallRequest:
    """A present-time recall of the warm-up tenant, as a default caller makes it (``reinforce`` off)."""
    return RecallRequest(
        query=query, user_id=WARM_TENANT, k=WARM_K, as_of=None, hops=1, views=None, reinforce=False
    )


def _effects(rt: Runtime, now: datetime, *, changes: bool) -> Callable[[Tx], list[dict[str, Any]]]:
    """Recall's write transaction for made-up hits of the warm-up tenant: every statement runs with the
    parameter types of a real recall that reinforces (``changes``: with competitors to inhibit), and matches
    no memory. The server's plan cache also keys on the size range of a list parameter (measured: 1, 2-10 and
    11-100 items plan apart), so the rehearsal returns ``WARM_K`` hits, a default recall's: the rows' read
    takes their ids as a list (the effects' lists travel in one map, planned once whatever their sizes)."""
    competitors = MAX_COMPETITORS if changes else 0
    hits = [
        RankedHit(f"{WARM_TENANT}-{i}", {}, 1.0 - i / 100, 0.5, {"vector": i + 1}, (), (), {})
        for i in range(WARM_K)
    ]
    relevance = {h.id: h.score for h in hits} | {f"{WARM_TENANT}-c{i}": 0.5 for i in range(competitors)}
    ranked = Ranked(hits, [], "hybrid", "linear", WARM_K + competitors, 0, relevance=relevance)
    request = replace(_request(WARM_QUERIES[0]), reinforce=True)
    effects = effects_of(rt, request, ranked, hits, "default", now, changes=changes)
    return with_rows(effects, hits, request.readable, now)


def _changed(work: Callable[[Tx], list[dict[str, Any]]]) -> Callable[[Tx], list[dict[str, Any]]]:
    """``work`` run on a :class:`_Changed` view of its transaction."""
    return lambda tx: work(_Changed(tx))


class _Changed:
    """A transaction that holds a pending change after its first statement, as a real recall's does once its
    reinforcement has written: the server plans the later statements apart for a transaction with changes
    (measured when co-recall was a statement of its own: warmed without them it took 70-120 ms again after a
    real reinforcement; since round 47 the effects are one statement, ``recall_write``, and the rows' read
    follows it)."""

    def __init__(self, tx: Tx) -> None:
        self._tx, self._first = tx, True

    def run(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        rows = self._tx.run(name, **params)
        if self._first:
            self._first = False
            self._tx.run("warmup_pending_change")
        return rows
