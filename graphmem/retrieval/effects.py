"""What a recall changes: reinforcement of what it returns, co-recall, retrieval-induced forgetting of its
competitors, and its record. Built once per recall, then written either in the request's own transaction
(``Settings.recall_effects="inline"``) or later by a background writer (``"deferred"``,
graphmem.store.deferred); the statements and their parameters are the same either way."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.model import heuristics, metamemory
from graphmem.retrieval.search import Ranked, RankedHit
from graphmem.store.driver import Tx

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


def recall_effects(
    *,
    user_id: str,
    query: str,
    tenants: list[str],
    k: int,
    as_of: datetime | None,
    known_at: datetime | None,
    ranked: Ranked,
    returned: list[RankedHit],
    intent: str,
    now: datetime,
    changes: bool,
    rif: bool,
    record: bool,
) -> RecallEffects:
    """The effects of returning ``returned``: reinforce it (spacing and testing, graphmem.model.heuristics)
    and strengthen the links between the memories returned together (synergy) when ``changes``; inhibit the
    competitors the cue activated but recall did not return when ``changes`` and ``rif`` (retrieval-induced
    forgetting, graphmem.model.metamemory); record the recall when ``record``."""
    ids = [h.id for h in returned]
    down = [
        {"id": mid, "activation": activation}
        for mid, activation in (metamemory.competitors(ranked.relevance, ids) if changes and rif else [])
    ]
    event = {
        "id": str(uuid.uuid4()),
        "user_id": user_id,
        "query": query,
        "memory_ids": ids,
        "levels": ["graph" if not h.sources else ranked.level for h in returned],
        "scores": [h.score for h in returned],
        "intent": intent,
        "as_of": as_of,
        "known_at": known_at,
        "k": k,
    }
    return RecallEffects(
        tenants=tenants,
        now=now,
        # memories are locked in id order, as formation locks them (fewer deadlocks)
        reinforced=sorted(ids) if changes else [],
        suppressed=sorted(down, key=lambda u: str(u["id"])),
        event=event if record else None,
    )
