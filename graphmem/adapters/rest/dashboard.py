"""REST routes of the dashboard (graphmem.adapters.dashboard): the page, stats, a user's timeline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from fastapi.params import Depends
from fastapi.responses import HTMLResponse

from graphmem.adapters import dashboard
from graphmem.adapters.moments import Moment
from graphmem.memory import GraphMemory
from graphmem.model import validation as check


def router(mem: GraphMemory, auth: Sequence[Depends]) -> APIRouter:
    api = APIRouter(tags=["dashboard"])

    @api.get("/dashboard", response_class=HTMLResponse)
    def dashboard_page() -> str:
        """The dashboard page (it asks for the API key and reads the routes below with it)."""
        return dashboard.page()

    @api.get("/stats", dependencies=list(auth))
    def stats(user_id: str | None = None, now: Moment | None = None) -> dict[str, Any]:
        """Memories by status and type and a retention histogram, for one user or all; ``now``: the clock
        retention is derived at (default: the wall clock; e.g. the virtual clock jobs ran with)."""
        uid = None if user_id is None else check.user_id(user_id)
        clock = check.aware_datetime(now, "now")
        return dashboard.memory_stats(mem.runtime, uid, now=clock).model_dump(mode="json")

    @api.get("/users/{user_id}/timeline", dependencies=list(auth))
    def timeline(
        user_id: str,
        start: Moment | None = None,
        end: Moment | None = None,
        known_at: Moment | None = None,
        limit: int | None = None,
        newest_first: bool = False,
    ) -> list[Any]:
        """The user's dated events, oldest first (``newest_first=true``: latest first), between ``start`` and
        ``end``; ``known_at``: only what the engine had recorded by then (docs/temporal.md); ``limit`` (1 to
        1,000; none: all): the first events in that order."""
        events = mem.temporal.timeline(
            user_id, start=start, end=end, known_at=known_at, limit=limit, newest_first=newest_first
        )
        return [e.model_dump(mode="json") for e in events]

    return api
