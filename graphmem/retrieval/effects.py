"""What a recall changes: reinforcement of what it returns, co-recall, retrieval-induced forgetting of its
competitors, and its record. Built once per recall, then written either in the request's own transaction
(``Settings.recall_effects="inline"``) or later by a background writer (``"deferred"``,
graphmem.store.deferred); the statements and their parameters are the same either way."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graphmem.model import heuristics, metamemory
from graphmem.retrieval.ranked import Ranked, RankedHit
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime

if TYPE_CHECKING:  # recall imports this module
    from graphmem.retrieval.recall import RecallRequest

SYNERGY_RATE = 0.1
"""Co-recall closes a tenth of the gap between a RELATED_TO weight and 1 (graphmem.model.heuristics)."""


@dataclass(frozen=True)
class RecallEffects:
    """One recall's writes (:meth:`apply`), in the order recall runs them; memories in id order."""

    tenants: list[str]  # the tenant keys the recall read
    now: datetime
    reinforced: list[str] = field(default_factory=list)  # the returned ids, sorted (empty: no reinforcement)
    suppressed: list[dict[str, Any]] = field(default_factory=list)  # competitors {id, activation}, by id
    event: dict[str, Any] | None = None  # the RecallEvent (None: recalls are not recorded)

    def apply(self, tx: Tx) -> None:
        if self.reinforced:
            r = heuristics.REINFORCEMENT.cypher()
            ids, tenants, now = self.reinforced, self.tenants, self.now
            tx.run("memory_reinforce", ids=ids, tenants=tenants, now=now, r=r, share=1.0)
            if len(self.reinforced) > 1:
                tx.run("memory_co_recalled", ids=ids, tenants=tenants, now=now, rate=SYNERGY_RATE)
        if self.suppressed:
            rif = metamemory.RIF.cypher()
            tx.run("memory_suppress", updates=self.suppressed, tenants=self.tenants, now=self.now, rif=rif)
        if self.event is not None:
            tx.run("recall_record", event=self.event, now=self.now)


def effects_of(
    rt: Runtime,
    req: RecallRequest,
    ranked: Ranked,
    returned: list[RankedHit],
    intent: str,
    now: datetime,
    *,
    changes: bool,
    latency_ms: float | None = None,
) -> RecallEffects:
    """What returning ``returned`` for ``req`` writes. When ``changes``: reinforce it (spacing and testing,
    graphmem.model.heuristics), strengthen the links between the memories returned together (synergy) and,
    if the settings allow it, inhibit the competitors the cue activated but recall did not return
    (retrieval-induced forgetting, graphmem.model.metamemory). Record the recall if the settings say so, with
    ``latency_ms``: the search's time (query embedding, pool read, ranking; not this write), for the value
    panel."""
    ids = [h.id for h in returned]
    rif = changes and rt.settings.retrieval_induced_forgetting
    down = [
        {"id": mid, "activation": activation}
        for mid, activation in (metamemory.competitors(ranked.relevance, ids) if rif else [])
    ]
    event = {
        "id": str(uuid.uuid4()),
        "user_id": req.user_id,
        "query": req.query,
        "memory_ids": ids,
        "levels": ["graph" if not h.sources else ranked.level for h in returned],
        "scores": [h.score for h in returned],
        "intent": intent,
        "as_of": req.as_of,
        "known_at": req.known_at,
        "k": req.k,
        "latency_ms": latency_ms,
    }
    return RecallEffects(
        tenants=req.readable,
        now=now,
        # memories are locked in id order, as formation locks them (fewer deadlocks)
        reinforced=sorted(ids) if changes else [],
        suppressed=sorted(down, key=lambda u: str(u["id"])),
        event=event if rt.settings.record_recalls else None,
    )
