"""REST routes of core memory blocks (always-in-context text a user or agent edits)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from fastapi.params import Depends

from graphmem import errors
from graphmem.adapters import ops
from graphmem.adapters.rest.bodies import (
    CoreAppendBody,
    CoreBlockBody,
    CoreReplaceBody,
)
from graphmem.memory import GraphMemory


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["core memory"], dependencies=list(auth))

    @api.get("/users/{user_id}/core")
    def core_blocks(user_id: str) -> list[dict[str, Any]]:
        return [ops.block_json(b) for b in mem.core.list(user_id)]

    @api.put("/users/{user_id}/core/{label}")
    def set_core_block(user_id: str, label: str, body: CoreBlockBody) -> dict[str, Any]:
        block = mem.core.set(
            user_id,
            label,
            body.value,
            limit=body.limit,
            description=body.description,
            read_only=body.read_only,
        )
        return ops.block_json(block)

    @api.get("/users/{user_id}/core/{label}")
    def core_block(user_id: str, label: str) -> dict[str, Any]:
        """One block (404: none with that label)."""
        block = next((b for b in mem.core.list(user_id) if b.label == label), None)
        if block is None:
            raise errors.CoreBlockNotFound(label)
        return ops.block_json(block)

    @api.get("/users/{user_id}/core/{label}/history")
    def core_history(user_id: str, label: str) -> list[dict[str, Any]]:
        """Every version of a block, oldest first."""
        return [ops.block_json(b) for b in mem.core.history(user_id, label)]

    @api.post("/users/{user_id}/core/{label}/append")
    def core_append(user_id: str, label: str, body: CoreAppendBody) -> dict[str, Any]:
        return ops.block_json(mem.core.append(user_id, label, body.text))

    @api.post("/users/{user_id}/core/{label}/replace")
    def core_replace(user_id: str, label: str, body: CoreReplaceBody) -> dict[str, Any]:
        return ops.block_json(mem.core.replace(user_id, label, body.old, body.new))

    return api
