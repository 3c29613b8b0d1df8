"""Admission by priority: recalls ahead of writes when the API is busy.

An agent waits on ``recall`` before it can answer; a ``remember`` can land a moment later without anyone
noticing. On a small machine the server, not Python, is the bottleneck (docs/rest.md): twenty clients queue
inside Neo4j whatever the API does, and by Little's law every request then takes (clients / throughput).
:class:`Admission` moves that queue in front of the app, where it can be ordered:

- at most ``slots`` requests run at once (the rest wait, in arrival order within their class);
- a freed slot goes to the oldest waiting *read* first (``GET``, and the ``POST`` routes that only read:
  recall, context, explore), then to the oldest waiting write;
- writes never hold more than ``write_slots`` of the slots, so a recall that arrives finds one free unless
  other reads fill them; and reads never take the last slot while a write waits with none running (with two
  or more slots), so a stream of recalls slows writes but cannot starve them;
- a request that waited ``wait_seconds`` gets ``503 Busy`` with ``Retry-After`` (nothing of it ran).

``GET /health`` bypasses the queue (a load balancer must see a busy API as alive) and shows it under
``details.admission`` (slots, running and waiting per kind, requests refused). The price is paid by
writes: under a mixed burst they wait while recalls pass (``benchmarks/rest_load.py`` reports both).
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import deque
from typing import Literal

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["Admission", "Slots", "default_slots", "kind_of"]

Kind = Literal["read", "write"]
_READ_POSTS = re.compile(r"/(recall|context|explore)/?$")
_BYPASS = frozenset({"/health"})


def default_slots() -> int:
    """Two per core, at least four: enough to keep Neo4j's workers busy while one request decodes or embeds
    (measured on 2 cores: 4-8 concurrent requests served 10-20 % more than 40, docs/rest.md)."""
    return max(4, 2 * (os.cpu_count() or 2))


def kind_of(method: str, path: str) -> Kind | None:
    """``read``, ``write``, or None for a request that bypasses admission."""
    if path in _BYPASS:
        return None
    if method in ("GET", "HEAD", "OPTIONS") or (method == "POST" and _READ_POSTS.search(path)):
        return "read"
    return "write"


class Slots:
    """The scheduler behind :class:`Admission` (see the module docstring). One instance serves one event loop
    (uvicorn's); ``create_app`` keeps it in ``app.state.admission`` for ``GET /health``."""

    def __init__(self, slots: int, write_slots: int, wait_seconds: float) -> None:
        if slots < 1 or not 1 <= write_slots <= slots:
            raise ValueError("admission needs slots >= 1 and 1 <= write_slots <= slots")
        self.slots = slots
        self.write_slots = write_slots
        self.wait_seconds = wait_seconds
        self.running: dict[Kind, int] = {"read": 0, "write": 0}
        self.refused = 0
        self._waiting: dict[Kind, deque[asyncio.Future[None]]] = {"read": deque(), "write": deque()}

    def snapshot(self) -> dict[str, object]:
        """What ``GET /health`` shows under ``details.admission``. Call it on the event loop: the queues
        change there, and iterating one from another thread could meet it mid-change."""
        waiting = {kind: self._queued(kind) for kind in self._waiting}
        return {
            "slots": self.slots,
            "write_slots": self.write_slots,
            "running": dict(self.running),
            "waiting": waiting,
            "refused": self.refused,
        }

    def _queued(self, kind: Kind) -> int:
        """Requests of ``kind`` still waiting (a waiter that gave up stays queued, done: not counted)."""
        return sum(not f.done() for f in self._waiting[kind])

    def _may_run(self, kind: Kind) -> bool:
        busy = sum(self.running.values())
        if busy >= self.slots:
            return False
        if kind == "write":
            return self.running["write"] < self.write_slots
        # reads never take the last slot from a waiting write that has none: writes are slowed, not starved
        starving = self.running["write"] == 0 and self._queued("write") > 0
        return not (starving and self.slots > 1 and busy == self.slots - 1)

    async def enter(self, kind: Kind) -> bool:
        """Take a slot (True), or give up after ``wait_seconds`` (False)."""
        ahead = self._queued("read") if kind == "write" else 0  # reads queued go before a write
        if self._may_run(kind) and not ahead + self._queued(kind):
            self.running[kind] += 1
            return True
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[kind].append(granted)
        try:
            await asyncio.wait_for(asyncio.shield(granted), self.wait_seconds)
            return True
        except BaseException as exc:  # timed out, or cancelled (the client went away)
            if granted.done() and not granted.cancelled():
                self.leave(kind)  # the slot was handed over as we gave up: pass it on
            else:
                granted.cancel()  # _dispatch skips it
            if isinstance(exc, TimeoutError):
                self.refused += 1
                return False
            raise

    def leave(self, kind: Kind) -> None:
        self.running[kind] -= 1
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand free slots to waiters: the oldest read, then (within the write cap) the oldest write."""
        for kind in ("read", "write"):
            queue = self._waiting[kind]
            while queue and self._may_run(kind):
                waiter = queue.popleft()
                if waiter.done():  # gave up while queued
                    continue
                self.running[kind] += 1
                waiter.set_result(None)


class Admission:
    """ASGI middleware: every request but ``/health`` takes a slot of ``slots`` while it runs."""

    def __init__(self, app: ASGIApp, slots: Slots) -> None:
        self.app = app
        self.slots = slots

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = kind_of(scope.get("method", ""), scope.get("path", "")) if scope["type"] == "http" else None
        if kind is None:
            await self.app(scope, receive, send)
            return
        if not await self.slots.enter(kind):
            await send(
                {
                    "type": "http.response.start",
                    "status": 503,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
                }
            )
            body = b'{"error":"Busy","detail":"the API is at capacity; retry shortly"}'
            await send({"type": "http.response.body", "body": body})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.slots.leave(kind)
