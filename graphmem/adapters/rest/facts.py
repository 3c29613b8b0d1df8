"""REST routes of bitemporal facts: set, get and list (as of / known at), history, retract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import fastapi
from fastapi import APIRouter, HTTPException, Request
from fastapi.params import Depends

from graphmem.adapters import auth as keyauth
from graphmem.adapters import ops
from graphmem.adapters.moments import Moment
from graphmem.adapters.rest.bodies import (
    FactBody,
    RetractBody,
    scope_args,
    shared,
)
from graphmem.memory import GraphMemory


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["facts"], dependencies=list(auth))

    @api.put("/users/{user_id}/facts")
    def set_fact(user_id: str, body: FactBody, request: Request) -> dict[str, Any]:
        keyauth.require_grant(request, *shared(body.scope, body.agent_id, body.org_id))
        fact = mem.facts.set(user_id, **body.model_dump())
        return ops.fact_json(fact) or {}

    @api.post("/users/{user_id}/facts/retract")
    def retract_fact(user_id: str, body: RetractBody, request: Request) -> dict[str, Any]:
        """Retract a fact's current version, history kept (404: no current version)."""
        keyauth.require_grant(request, *shared(body.scope, body.agent_id, body.org_id))
        fact = mem.facts.retract(
            user_id,
            body.key,
            valid_to=body.valid_to,
            **body.model_dump(include={"agent_id", "org_id", "session_id", "scope"}),
        )
        return ops.fact_json(fact) or {}

    _reads(api, mem)
    return api


@dataclass
class FactRead:
    """The query parameters of a point-in-time fact read: the times and the scope."""

    as_of: Moment | None = None
    known_at: Moment | None = None
    agent_id: str | None = None
    org_id: str | None = None
    session_id: str | None = None
    scope: str = "user"

    def arguments(self, request: Request) -> dict[str, Any]:
        """The ``mem.facts`` keyword arguments, once the key may read the scope."""
        keyauth.require_grant(request, *shared(self.scope, self.agent_id, self.org_id))
        reach = scope_args(self.agent_id, self.org_id, self.session_id, self.scope)
        return {"as_of": self.as_of, "known_at": self.known_at, **reach}


def _reads(api: APIRouter, mem: GraphMemory) -> None:
    """The read routes: one key (now or then), every key, one key's history."""

    @api.get("/users/{user_id}/facts")
    def get_fact(
        request: Request, user_id: str, key: str, read: Annotated[FactRead, fastapi.Depends()]
    ) -> dict[str, Any]:
        """A fact's current value, or the one valid at ``as_of`` as known at ``known_at`` (404: none)."""
        fact = mem.facts.get(user_id, key, **read.arguments(request))
        if fact is None:
            raise HTTPException(status_code=404, detail=ops.no_value(key, read.as_of, read.known_at))
        return ops.fact_json(fact) or {}

    @api.get("/users/{user_id}/facts/current")
    def list_facts(
        request: Request, user_id: str, read: Annotated[FactRead, fastapi.Depends()]
    ) -> list[dict[str, Any] | None]:
        """Every fact's current value, key order; or each key's value valid at ``as_of`` as known at
        ``known_at``."""
        return [ops.fact_json(f) for f in mem.facts.list(user_id, **read.arguments(request))]

    @api.get("/users/{user_id}/facts/history")
    def fact_history(
        request: Request,
        user_id: str,
        key: str,
        agent_id: str | None = None,
        org_id: str | None = None,
        session_id: str | None = None,
        scope: str = "user",
        limit: int | None = None,
    ) -> list[dict[str, Any] | None]:
        """Every version of a fact, oldest first (valid time and transaction time); ``limit`` (1 to 1,000):
        only the latest in valid time."""
        keyauth.require_grant(request, *shared(scope, agent_id, org_id))
        scoped = scope_args(agent_id, org_id, session_id, scope)
        versions = mem.facts.history(user_id, key, limit=limit, **scoped)
        return [ops.fact_json(f) for f in versions]
