"""REST routes over a whole user's data: export, delete, anonymize."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from fastapi.params import Depends

from graphmem.memory import GraphMemory


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["users"], dependencies=list(auth))

    @api.get("/users/{user_id}/export")
    def export_user(user_id: str) -> dict[str, Any]:
        """Everything stored about a user (JSON)."""
        return mem.users.export(user_id)

    @api.delete("/users/{user_id}")
    def delete_user(user_id: str) -> dict[str, Any]:
        """Hard-delete a user's data (the audit keeps a tombstone)."""
        return mem.users.delete(user_id, actor="api").model_dump(mode="json")

    @api.post("/users/{user_id}/anonymize")
    def anonymize_user(user_id: str) -> dict[str, Any]:
        """Redact a user's content and personal fields; structure and counts stay (irreversible)."""
        return {"user_id": user_id, "anonymized": mem.users.anonymize(user_id, actor="api")}

    return api
