"""REST routes over a user's graph as it was and who changed it: snapshot, diff, audit log (the timeline is
the dashboard's). Each is ``mem.temporal``'s read of the same name (docs/temporal.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from fastapi.params import Depends

from graphmem.adapters.moments import Moment
from graphmem.memory import GraphMemory

AUDIT_PAGE = 100
"""Events in one page of ``GET /users/{user_id}/audit`` when the client names no ``limit`` (at most 1,000)."""


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["history"], dependencies=list(auth))

    @api.get("/users/{user_id}/snapshot")
    def snapshot(user_id: str, as_of: Moment, known_at: Moment | None = None) -> dict[str, Any]:
        """The user's nodes and edges valid at ``as_of`` (valid time) as recorded by ``known_at``
        (transaction time; default: now): "what did we know at ``known_at`` about ``as_of``"."""
        return mem.temporal.snapshot(user_id, as_of=as_of, known_at=known_at).model_dump(mode="json")

    @api.get("/users/{user_id}/diff")
    def diff(user_id: str, t1: Moment, t2: Moment, known_at: Moment | None = None) -> dict[str, Any]:
        """What was added, closed or changed in the user's graph between valid times ``t1`` and ``t2``, both
        read as recorded by ``known_at`` (default: now), with the facts whose value changed."""
        return mem.temporal.diff(user_id, t1, t2, known_at=known_at).model_dump(mode="json")

    @api.get("/users/{user_id}/audit")
    def audit(
        user_id: str,
        since: Moment | None = None,
        until: Moment | None = None,
        target_id: str | None = None,
        after: str | None = None,
        limit: int = AUDIT_PAGE,
        newest_first: bool = False,
    ) -> dict[str, Any]:
        """Who changed what in the user's memory, oldest first (``newest_first=true``: latest first): one page
        of at most ``limit`` events (1 to 1,000) after the event ``after``; ``next`` is the id to ask the next
        page with (null when this page is not full: nothing follows). A deleted user's tombstone events are
        found by the same id."""
        events = mem.temporal.audit_log(
            user_id=user_id,
            target_id=target_id,
            since=since,
            until=until,
            after=after,
            limit=limit,
            newest_first=newest_first,
        )
        return {
            "events": [e.model_dump(mode="json") for e in events],
            "next": events[-1].id if len(events) == limit else None,
        }

    return api
