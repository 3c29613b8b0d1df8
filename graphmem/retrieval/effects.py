"""What a recall changes: reinforcement of what it returns, co-recall, retrieval-induced forgetting of its
competitors, and its record. Built once per recall, then written either in the request's own transaction
(``Settings.recall_effects="inline"``) or later by a background writer (``"deferred"``,
graphmem.store.deferred); the statement and its parameters are the same either way."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graphmem.model import heuristics, metamemory
from graphmem.retrieval.ranked import Ranked, RankedHit
from graphmem.store.driver import Tx
from graphmem.store.runtime import Runtime
from graphmem.store.values import list_map

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
        """Write the effects: one statement (``recall_write``), nothing when there is nothing to write."""
        if self.reinforced or self.suppressed or self.event is not None:
            tx.run("recall_write", **self.params())

    def params(self) -> dict[str, Any]:
        """The parameters of ``recall_write``: its lists in one map (graphmem.store.values.list_map)."""
        return effects_params(
            self.tenants,
            self.now,
            reinforced=self.reinforced,
            suppressed=self.suppressed,
            events=() if self.event is None else (self.event,),
        )


def effects_params(
    tenants: list[str],
    now: datetime,
    *,
    reinforced: Sequence[str] = (),
    suppressed: Sequence[dict[str, Any]] = (),
    events: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The parameters of ``recall_write`` for these lists (co-recall: the reinforced ids when two or more
    were returned together), with the heuristics' constants."""
    plan = list_map(
        reinforced=reinforced,
        co_recalled=reinforced if len(reinforced) > 1 else (),
        suppressed=suppressed,
        events=events,
    )
    return {
        "tenants": tenants,
        "now": now,
        "plan": plan,
        "reinforcement": heuristics.REINFORCEMENT.cypher(),
        "share": 1.0,
        "rate": SYNERGY_RATE,
        "rif": metamemory.RIF.cypher(),
    }


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
