"""Compile formation's query plans before the first write.

A server plans each statement on its first run (and again per shape of its parameters: a list of one item
and one of 2-10 plan apart). A first ``add_messages`` of three turns on a freshly started server took 5.1 s,
4.7 s of it planning (the context read 0.9 s, the neighbour search 0.6 s, the session tail 0.5 s, the memory
write 0.3 s, ten more statements 0.1-0.2 s each; the vector indexes' state 1.5 s, which recall's warm-up also
reads); the next call, for another user, 0.28 s.

:func:`warm_formation` runs formation's reads for the warm-up tenant (one no caller can name, so nothing is
found), then its write transaction, audit step included, for turns that state a fact, name entities and give
a cause, in a transaction that is rolled back: nothing is written. One turn (a ``remember``) and a small batch
(an ``add_messages``), the two list-size ranges of a chat; and, where the entity index filters by tenant, the
entity resolution read of a user with many entities. The REST API and the MCP server call it at start-up
with recall's warm-up (:meth:`graphmem.GraphMemory.warm`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from graphmem.errors import GraphMemError
from graphmem.formation.drafts import MemoryDraft
from graphmem.formation.gather import ENTITY_SCAN_MAX, gather, similar_entities
from graphmem.formation.plan import FormationPlan, plan_formation
from graphmem.formation.writer import apply
from graphmem.retrieval.warmup import WARM_TENANT
from graphmem.store import idempotency
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

__all__ = ["WARM_TURNS", "warm_formation"]

WARM_TURNS = (
    "My name is Sam and I live in Leeds with my dog Rex.",
    "I moved to Leeds because my sister Ana found me a job there.",
    "Rex loves the long walks by the canal in Leeds.",
)
"""A fact (``name``, ``location``), entities (Sam, Leeds, Rex, Ana) and a causal cue ("because"): the
statements a chat's first writes run."""


def warm_formation(rt: Runtime) -> float:
    """Plan formation's statements for a one-turn and a three-turn write; returns the seconds spent. Writes
    nothing. A failure is logged, never raised: a cold plan is slower, not wrong."""
    started = time.perf_counter()
    now = datetime.now(UTC)
    drafts = [
        MemoryDraft(content=text, user_id=WARM_TENANT, session_id="warm-up", role="user", speaker="Sam")
        for text in WARM_TURNS
    ]
    try:
        for size in (1, len(drafts)):
            context = gather(rt, drafts[:size], now, None)
            plan = plan_formation(context, rt.settings)
            rt.store.rehearse(_write(plan))
        # entity resolution of a user with many entities (the warm-up tenant has none: nothing is found), with
        # the embedding of one of the batch's entity names: the index read where it filters by tenant
        vectors = list(context.entity_vectors.values())
        if vectors and rt.entity_index.ready(rt.store):
            names = [{"key": f"warm-up {i}", "embedding": vectors[0]} for i in range(2)]
            for asked in (names[:1], names):
                similar_entities(rt, WARM_TENANT, asked, 1.0, ENTITY_SCAN_MAX + 1)
    except GraphMemError as exc:
        logger.warning("warming formation's query plans failed (it will plan on first use): %s", exc)
    return time.perf_counter() - started


def _write(plan: FormationPlan) -> Callable[[Tx], None]:
    """The write transaction of ``plan`` as ``add_messages`` runs it: the writes, then the audit step."""
    step = idempotency.audited(idempotency.Claim(None), "add_messages", user_id=WARM_TENANT)

    def work(tx: Tx) -> None:
        apply(tx, plan)
        step(tx, list(plan.memory_ids), None)

    return work
