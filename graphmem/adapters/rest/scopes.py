"""REST routes of the shared scopes (docs/scopes.md): an agent's memories and facts under
``/agents/{agent_id}/...``, an organisation's under ``/orgs/{org_id}/...``.

An agent key reaches only its agent's routes, an organisation key only its organisation's, the admin key
all (``graphmem.adapters.auth``). A user reads these scopes through its own routes (``/users/U/recall``
with ``agent_id``/``org_id``), with a key granted them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Response
from fastapi.params import Depends

from graphmem.adapters import ops
from graphmem.adapters.rest.bodies import SharedFactBody, SharedMemoryBody, SharedRecallBody
from graphmem.adapters.rest.memories import PageQuery
from graphmem.memory import GraphMemory
from graphmem.model.scopes import Scope


@dataclass(frozen=True)
class _Owner:
    scope: Scope
    agent_id: str | None = None
    org_id: str | None = None

    def reach(self) -> dict[str, Any]:
        """The facade's scope arguments for this owner."""
        return {"scope": self.scope, "agent_id": self.agent_id, "org_id": self.org_id}


def _remember(mem: GraphMemory, owner: _Owner, body: SharedMemoryBody) -> dict[str, Any]:
    fields = body.model_dump(exclude={"content"})
    memory = mem.remember(
        body.content, scope=owner.scope, agent_id=owner.agent_id, org_id=owner.org_id, **fields
    )
    return ops.memory_json(memory)


def _recall(mem: GraphMemory, owner: _Owner, body: SharedRecallBody) -> list[dict[str, Any]]:
    hits = mem.recall(
        body.query,
        agent_id=owner.agent_id,
        org_id=owner.org_id,
        k=body.k,
        as_of=body.as_of,
        hops=body.hops,
        reinforce=body.reinforce,
    )
    return [ops.hit_json(h, explain=body.explain) for h in hits]


def _set_fact(mem: GraphMemory, owner: _Owner, body: SharedFactBody) -> dict[str, Any]:
    fields = body.model_dump()
    fact = mem.facts.set(None, scope=owner.scope, agent_id=owner.agent_id, org_id=owner.org_id, **fields)
    return ops.fact_json(fact) or {}


def _get_fact(mem: GraphMemory, owner: _Owner, key: str) -> dict[str, Any]:
    fact = mem.facts.get(None, key, scope=owner.scope, agent_id=owner.agent_id, org_id=owner.org_id)
    if fact is None:
        raise HTTPException(status_code=404, detail=ops.no_value(key))
    return ops.fact_json(fact) or {}


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    """The agent and organisation routes (each shared scope read and written on its own)."""
    api = APIRouter(tags=["scopes"], dependencies=list(auth))
    _reads(api, mem)

    @api.post("/agents/{agent_id}/memories", status_code=201)
    def agent_remember(agent_id: str, body: SharedMemoryBody) -> dict[str, Any]:
        """Store a memory every user of this agent reads (e.g. a procedure it learned)."""
        return _remember(mem, _Owner(Scope.AGENT, agent_id=agent_id), body)

    @api.post("/agents/{agent_id}/recall")
    def agent_recall(agent_id: str, body: SharedRecallBody) -> list[dict[str, Any]]:
        """Recall from this agent's shared memories only."""
        return _recall(mem, _Owner(Scope.AGENT, agent_id=agent_id), body)

    @api.put("/agents/{agent_id}/facts")
    def agent_set_fact(agent_id: str, body: SharedFactBody) -> dict[str, Any]:
        return _set_fact(mem, _Owner(Scope.AGENT, agent_id=agent_id), body)

    @api.get("/agents/{agent_id}/facts")
    def agent_get_fact(agent_id: str, key: str) -> dict[str, Any]:
        return _get_fact(mem, _Owner(Scope.AGENT, agent_id=agent_id), key)

    @api.post("/orgs/{org_id}/memories", status_code=201)
    def org_remember(org_id: str, body: SharedMemoryBody) -> dict[str, Any]:
        """Store a memory everyone in this organisation reads (shared knowledge)."""
        return _remember(mem, _Owner(Scope.ORG, org_id=org_id), body)

    @api.post("/orgs/{org_id}/recall")
    def org_recall(org_id: str, body: SharedRecallBody) -> list[dict[str, Any]]:
        """Recall from this organisation's shared memories only."""
        return _recall(mem, _Owner(Scope.ORG, org_id=org_id), body)

    @api.put("/orgs/{org_id}/facts")
    def org_set_fact(org_id: str, body: SharedFactBody) -> dict[str, Any]:
        return _set_fact(mem, _Owner(Scope.ORG, org_id=org_id), body)

    @api.get("/orgs/{org_id}/facts")
    def org_get_fact(org_id: str, key: str) -> dict[str, Any]:
        return _get_fact(mem, _Owner(Scope.ORG, org_id=org_id), key)

    return api


def _reads(api: APIRouter, mem: GraphMemory) -> None:
    """A shared scope's memories without a query: a page (its total in ``X-Total-Count``), one by id."""

    @api.get("/agents/{agent_id}/memories")
    def agent_memories(agent_id: str, page: PageQuery, response: Response) -> list[dict[str, Any]]:
        """This agent's shared memories, newest first, a page at a time (filters as for a user's)."""
        return page.listed(mem, response, user_id=None, **_Owner(Scope.AGENT, agent_id=agent_id).reach())

    @api.get("/agents/{agent_id}/memories/{memory_id}")
    def agent_memory(agent_id: str, memory_id: str) -> dict[str, Any]:
        """One of this agent's shared memories (404 when it has none of that id)."""
        return ops.memory_json(mem.memories.get(memory_id, **_Owner(Scope.AGENT, agent_id=agent_id).reach()))

    @api.get("/orgs/{org_id}/memories")
    def org_memories(org_id: str, page: PageQuery, response: Response) -> list[dict[str, Any]]:
        """This organisation's shared memories, newest first, a page at a time (filters as for a user's)."""
        return page.listed(mem, response, user_id=None, **_Owner(Scope.ORG, org_id=org_id).reach())

    @api.get("/orgs/{org_id}/memories/{memory_id}")
    def org_memory(org_id: str, memory_id: str) -> dict[str, Any]:
        """One of this organisation's shared memories (404 when it has none of that id)."""
        return ops.memory_json(mem.memories.get(memory_id, **_Owner(Scope.ORG, org_id=org_id).reach()))
