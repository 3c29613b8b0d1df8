"""REST routes of bitemporal facts: set, get (as of / known at), history, retract."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.params import Depends

from graphmem.adapters import ops
from graphmem.adapters.rest.bodies import (
    FactBody,
    RetractBody,
)
from graphmem.memory import GraphMemory


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["facts"], dependencies=list(auth))

    @api.put("/users/{user_id}/facts")
    def set_fact(user_id: str, body: FactBody) -> dict[str, Any]:
        fact = mem.facts.set(user_id, **body.model_dump())
        return ops.fact_json(fact) or {}

    @api.get("/users/{user_id}/facts")
    def get_fact(
        user_id: str,
        key: str,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        agent_id: str | None = None,
    ) -> dict[str, Any]:
        """A fact's current value, or the one valid at ``as_of`` as known at ``known_at`` (404: none)."""
        fact = mem.facts.get(user_id, key, as_of=as_of, known_at=known_at, agent_id=agent_id)
        if fact is None:
            raise HTTPException(status_code=404, detail=f"no fact {key!r}")
        return ops.fact_json(fact) or {}

    @api.get("/users/{user_id}/facts/history")
    def fact_history(user_id: str, key: str, agent_id: str | None = None) -> list[dict[str, Any] | None]:
        """Every version of a fact, oldest first (valid time and transaction time)."""
        return [ops.fact_json(f) for f in mem.facts.history(user_id, key, agent_id=agent_id)]

    @api.post("/users/{user_id}/facts/retract")
    def retract_fact(user_id: str, body: RetractBody) -> dict[str, Any]:
        """Retract a fact's current version, history kept (404: no current version)."""
        fact = mem.facts.retract(user_id, body.key, valid_to=body.valid_to, agent_id=body.agent_id)
        return ops.fact_json(fact) or {}

    return api
