"""Fact versions in the graph: set (classify, supersede, keep both or merge, all audited) and get."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from . import facts
from .facts import CurrentFact, FactInput, Resolution
from .models import Fact, Source
from .runtime import Runtime
from .store import Tx

logger = logging.getLogger(__name__)

__all__ = ["FactInput", "apply", "fact_from_row", "get_fact", "set_fact"]


def fact_from_row(row: dict[str, Any]) -> Fact:
    known = Fact.model_fields
    return Fact.model_validate({k: v for k, v in row.items() if k in known and v is not None})


def apply(tx: Tx, inputs: list[FactInput], now: datetime) -> list[tuple[str, Resolution]]:
    """Write ``inputs`` inside ``tx``: read current versions, plan, write; (id, resolution) per input."""
    if not inputs:
        return []
    keys = {i.identity: i for i in inputs}
    rows = tx.run(
        "fact_current",
        keys=[{"user_id": u, "agent_id": a, "fact_type": t, "key": k} for (u, a, t, k) in keys],
    )
    currents = {
        (r["user_id"], r["agent_id"], r["fact_type"], r["key"]): CurrentFact(
            id=r["id"],
            value=r["value"],
            valid_from=r["valid_from"],
            source=Source(r["source"]),
            version=int(r["version"]),
        )
        for r in rows
    }
    plan = facts.plan(inputs, currents, now)
    user_id = inputs[0].user_id
    if plan.create:
        tx.run("fact_create", rows=[{"valid_to": None, "expire": False, **r} for r in plan.create], now=now)
    if plan.close:
        tx.run("fact_close", closes=plan.close, user_id=user_id, now=now)
    if plan.supersedes or plan.conflicts_with:
        tx.run(
            "fact_edges", supersedes=plan.supersedes, conflicts=plan.conflicts_with, user_id=user_id, now=now
        )
    tx.run("fact_audit", audit=plan.audit, now=now)
    logger.debug(
        "facts: %d inputs, %d new versions, %d closed", len(inputs), len(plan.create), len(plan.close)
    )
    return plan.results


def set_fact(rt: Runtime, new: FactInput, *, now: datetime | None = None) -> Fact:
    now = now or datetime.now(UTC)
    results = rt.store.unit_of_work(lambda tx: apply(tx, [new], now))
    fact_id = results[0][0]
    rows = rt.store.read("fact_by_id", user_id=new.user_id, id=fact_id)
    return fact_from_row(rows[0]["fact"])


def get_fact(rt: Runtime, user_id: str, key: str, *, agent_id: str | None = None) -> Fact | None:
    rows = rt.store.read("fact_get", user_id=user_id, key=key, agent_id=agent_id)
    return fact_from_row(rows[0]["fact"]) if rows else None
