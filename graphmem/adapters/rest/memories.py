"""REST routes of the verbs agents call every turn: remember, messages, recall, context, update, feedback,
forget; and reading one memory or a page of them (of any scope, with its total)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import fastapi
from fastapi import APIRouter, Query, Request, Response
from fastapi.params import Depends

from graphmem.adapters import auth as keyauth
from graphmem.adapters import ops
from graphmem.adapters.rest.bodies import (
    ContextBody,
    FeedbackBody,
    MessagesBody,
    RecallBody,
    RememberBody,
    UpdateBody,
    scope_args,
    shared,
)
from graphmem.memory import GraphMemory


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["memories"], dependencies=list(auth))
    _reads(api, mem)

    @api.post("/users/{user_id}/memories", status_code=201)
    def remember(user_id: str, body: RememberBody, request: Request) -> dict[str, Any]:
        keyauth.require_grant(request, *shared(body.scope, body.agent_id, body.org_id))
        memory = mem.remember(body.content, user_id=user_id, **body.model_dump(exclude={"content"}))
        return ops.memory_json(memory)

    @api.post("/users/{user_id}/messages", status_code=201)
    def add_messages(user_id: str, body: MessagesBody, request: Request) -> list[dict[str, Any]]:
        keyauth.require_grant(request, *shared(body.scope, body.agent_id, body.org_id))
        memories = mem.add_messages(body.messages, user_id=user_id, **body.model_dump(exclude={"messages"}))
        return [ops.memory_json(m) for m in memories]

    @api.post("/users/{user_id}/recall")
    def recall(user_id: str, body: RecallBody, request: Request) -> list[dict[str, Any]]:
        keyauth.require_grant(request, body.agent_id, body.org_id)
        hits = mem.recall(body.query, user_id=user_id, **body.model_dump(exclude={"query", "explain"}))
        return [ops.hit_json(h, explain=body.explain) for h in hits]

    @api.post("/users/{user_id}/context")
    def context(user_id: str, body: ContextBody, request: Request) -> dict[str, Any]:
        keyauth.require_grant(request, body.agent_id, body.org_id)
        ctx = mem.context(body.query, user_id=user_id, **body.model_dump(exclude={"query"}))
        return ops.context_json(ctx)

    @api.put("/users/{user_id}/memories/{memory_id}")
    def update(user_id: str, memory_id: str, body: UpdateBody) -> dict[str, Any]:
        """Change a memory's text (a new version; the previous one stays in its history)."""
        memory = ops.update_memory(
            mem, memory_id, body.content, user_id=user_id, expected_version=body.expected_version
        )
        return ops.memory_json(memory)

    @api.post("/users/{user_id}/memories/{memory_id}/feedback")
    def feedback(user_id: str, memory_id: str, body: FeedbackBody) -> dict[str, Any]:
        """Say whether a recalled memory helped: its strength moves, the question becomes (or stops being) a
        full-text key of it, and the user's retrieval weights learn from it (docs/dynamics.md)."""
        mem.memories.feedback(memory_id, user_id=user_id, useful=body.useful, query=body.query)
        return {"memory_id": memory_id, "useful": body.useful}

    @api.delete("/users/{user_id}/memories/{memory_id}")
    def forget(user_id: str, memory_id: str) -> dict[str, Any]:
        """Soft-forget a memory (restorable)."""
        mem.forget(memory_id, user_id=user_id)
        return {"forgotten": memory_id}

    return api


TOTAL_COUNT = "X-Total-Count"
"""The response header of a memory listing giving how many memories match its filters (the body stays the
page: a JSON array, as before the header)."""


@dataclass
class MemoryPage:
    """The query parameters of a memory listing: the page (``limit`` at most 1,000; ``after``: the previous
    page's last id, a cursor that reads from its place on, where a deep ``offset`` reads what it skips) and
    the filters; repeat ``status`` (default: active, weak, dormant) or ``tag`` (a memory must carry every
    one) to give several."""

    limit: int = 100
    offset: int = 0
    after: str | None = None
    status: Annotated[list[str] | None, Query()] = None
    memory_type: str | None = None
    session_id: str | None = None
    tag: Annotated[list[str] | None, Query()] = None

    def listed(self, mem: GraphMemory, response: Response, **scope: Any) -> list[dict[str, Any]]:
        """The page of the scope's memories (``mem.memories.list``), its total in ``X-Total-Count`` (not on a
        page asked by cursor: the count reads every memory of the scope, the first page gave it, and a
        cursor page would cost it again and again)."""
        filters: dict[str, Any] = {
            "status": self.status,
            "memory_type": self.memory_type,
            "session_id": self.session_id,
            "tags": self.tag,
        }
        page: dict[str, Any] = {"limit": self.limit, "offset": self.offset, "after": self.after}
        memories = mem.memories.list(**page, **filters, **scope)
        if self.after is None:
            response.headers[TOTAL_COUNT] = str(mem.memories.count(**filters, **scope))
        return [ops.memory_json(m) for m in memories]


PageQuery = Annotated[MemoryPage, fastapi.Depends()]
"""A route parameter taking a :class:`MemoryPage` from the query string."""


def _reads(api: APIRouter, mem: GraphMemory) -> None:
    """Reading memories without a query: a page of them, one, its versions. ``scope=session|agent|org``
    (with ``session_id``, ``agent_id``, ``org_id``) reads that scope instead of the user's own, with a key
    granted it (docs/scopes.md)."""

    @api.get("/users/{user_id}/memories")
    def memory_list(
        user_id: str,
        request: Request,
        response: Response,
        page: PageQuery,
        agent_id: str | None = None,
        org_id: str | None = None,
        scope: str = "user",
    ) -> list[dict[str, Any]]:
        """The user's memories (or those of ``scope``), newest first, a page at a time (``after``: the page
        after that memory); the header ``X-Total-Count`` says how many match the filters (on pages asked
        without ``after``)."""
        keyauth.require_grant(request, *shared(scope, agent_id, org_id))
        return page.listed(mem, response, user_id=user_id, scope=scope, agent_id=agent_id, org_id=org_id)

    @api.get("/users/{user_id}/memories/{memory_id}")
    def memory_get(
        user_id: str,
        memory_id: str,
        request: Request,
        agent_id: str | None = None,
        org_id: str | None = None,
        session_id: str | None = None,
        scope: str = "user",
    ) -> dict[str, Any]:
        """One memory, current version (404 when the scope has none of that id)."""
        keyauth.require_grant(request, *shared(scope, agent_id, org_id))
        reach = scope_args(agent_id, org_id, session_id, scope)
        return ops.memory_json(mem.memories.get(memory_id, user_id=user_id, **reach))

    @api.get("/users/{user_id}/memories/{memory_id}/history")
    def memory_history(user_id: str, memory_id: str) -> list[dict[str, Any]]:
        """Every version of a memory, oldest first."""
        return [ops.memory_json(m) for m in mem.memories.history(memory_id, user_id=user_id)]
