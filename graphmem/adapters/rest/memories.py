"""REST routes of the verbs agents call every turn: remember, messages, recall, context, update, forget."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from fastapi.params import Depends

from graphmem.adapters import ops
from graphmem.adapters.rest.bodies import (
    ContextBody,
    MessagesBody,
    RecallBody,
    RememberBody,
    UpdateBody,
)
from graphmem.memory import GraphMemory


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["memories"], dependencies=list(auth))

    @api.post("/users/{user_id}/memories", status_code=201)
    def remember(user_id: str, body: RememberBody) -> dict[str, Any]:
        memory = mem.remember(body.content, user_id=user_id, **body.model_dump(exclude={"content"}))
        return ops.memory_json(memory)

    @api.post("/users/{user_id}/messages", status_code=201)
    def add_messages(user_id: str, body: MessagesBody) -> list[dict[str, Any]]:
        memories = mem.add_messages(
            body.messages, user_id=user_id, session_id=body.session_id, agent_id=body.agent_id
        )
        return [ops.memory_json(m) for m in memories]

    @api.post("/users/{user_id}/recall")
    def recall(user_id: str, body: RecallBody) -> list[dict[str, Any]]:
        hits = mem.recall(
            body.query,
            user_id=user_id,
            k=body.k,
            as_of=body.as_of,
            hops=body.hops,
            views=body.views,
            reinforce=body.reinforce,
            reconstruct=body.reconstruct,
        )
        return [ops.hit_json(h, explain=body.explain) for h in hits]

    @api.post("/users/{user_id}/context")
    def context(user_id: str, body: ContextBody) -> dict[str, Any]:
        ctx = mem.context(
            body.query, user_id=user_id, token_budget=body.token_budget, k=body.k, reinforce=body.reinforce
        )
        return ops.context_json(ctx)

    @api.put("/users/{user_id}/memories/{memory_id}")
    def update(user_id: str, memory_id: str, body: UpdateBody) -> dict[str, Any]:
        """Change a memory's text (a new version; the previous one stays in its history)."""
        memory = ops.update_memory(
            mem, memory_id, body.content, user_id=user_id, expected_version=body.expected_version
        )
        return ops.memory_json(memory)

    @api.get("/users/{user_id}/memories/{memory_id}/history")
    def memory_history(user_id: str, memory_id: str) -> list[dict[str, Any]]:
        """Every version of a memory, oldest first."""
        return [ops.memory_json(m) for m in mem.memories.history(memory_id, user_id=user_id)]

    @api.delete("/users/{user_id}/memories/{memory_id}")
    def forget(user_id: str, memory_id: str) -> dict[str, Any]:
        """Soft-forget a memory (restorable)."""
        mem.forget(memory_id, user_id=user_id)
        return {"forgotten": memory_id}

    return api
