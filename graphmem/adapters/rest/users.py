"""REST routes over a whole user's data: export, delete, anonymize.

Deleting or anonymizing a user of whom nothing is stored (a mistyped id, or one deleted already) is a 404
``UserNotFound`` and writes nothing, as the CLI's exit 4: a typo must not read as a successful erasure.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.params import Depends
from fastapi.responses import StreamingResponse

from graphmem.governance import export, users
from graphmem.memory import GraphMemory
from graphmem.model import validation as check


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["users"], dependencies=list(auth))

    @api.get("/users/{user_id}/export", response_model=None)
    def export_user(
        user_id: str, fmt: Annotated[Literal["json", "jsonl"], Query(alias="format")] = "json"
    ) -> dict[str, Any] | StreamingResponse:
        """Everything stored about a user: one JSON document, or with ``format=jsonl`` JSON Lines streamed
        page by page (``application/x-ndjson``; any size of user)."""
        if fmt == "json":
            return mem.users.export(user_id)
        stream = export.lines(users.export_records(mem.runtime, check.user_id(user_id)))
        head = list(itertools.islice(stream, 2))  # the first read made here: its failure is an error status
        return StreamingResponse(itertools.chain(head, stream), media_type="application/x-ndjson")

    @api.delete("/users/{user_id}")
    def delete_user(user_id: str) -> dict[str, Any]:
        """Hard-delete a user's data (the audit keeps a tombstone); 404 when nothing is stored for it."""
        users.require_stored(mem.runtime, check.user_id(user_id))
        return mem.users.delete(user_id, actor="api").model_dump(mode="json")

    @api.post("/users/{user_id}/anonymize")
    def anonymize_user(user_id: str) -> dict[str, Any]:
        """Redact a user's content and personal fields; structure and counts stay (irreversible); 404 when
        nothing is stored for it."""
        users.require_stored(mem.runtime, check.user_id(user_id))
        return {"user_id": user_id, "anonymized": mem.users.anonymize(user_id, actor="api")}

    return api
