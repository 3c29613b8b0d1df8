"""Admission by priority (graphmem.adapters.rest.admission): reads ahead of writes, writes capped, a bounded
wait, nothing leaked when a waiter gives up. Pure ASGI over asyncio: no server needed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from graphmem.adapters.rest.admission import Admission, Slots, default_slots, kind_of


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> Callable[[], None]:
    """A test that runs ``scenario`` on a fresh event loop."""

    def test() -> None:
        asyncio.run(scenario())

    test.__name__ = scenario.__name__
    return test


class Gate:
    """An ASGI app whose requests finish only when released; records the order they started in."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release: dict[str, asyncio.Event] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        name = scope["name"]
        self.started.append(name)
        await self.release.setdefault(name, asyncio.Event()).wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    def done(self, name: str) -> None:
        self.release.setdefault(name, asyncio.Event()).set()


def request(admission: Admission, name: str, method: str, path: str) -> asyncio.Task[list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def run() -> list[dict[str, Any]]:
        await admission({"type": "http", "method": method, "path": path, "name": name}, receive, send)
        return sent

    return asyncio.ensure_future(run())


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_kinds() -> None:
    assert kind_of("POST", "/users/u1/recall") == "read"
    assert kind_of("POST", "/orgs/o/recall") == "read"
    assert kind_of("POST", "/users/u1/context") == "read"
    assert kind_of("GET", "/users/u1/facts") == "read"
    assert kind_of("POST", "/users/u1/memories") == "write"
    assert kind_of("POST", "/users/u1/messages") == "write"
    assert kind_of("PUT", "/users/u1/facts") == "write"
    assert kind_of("DELETE", "/users/u1") == "write"
    assert kind_of("POST", "/users/recall/memories") == "write"  # a user named "recall" still writes
    assert kind_of("GET", "/health") is None
    assert default_slots() >= 4


@run
async def test_a_freed_slot_goes_to_the_waiting_read_first() -> None:
    gate = Gate()
    admission = Admission(gate, Slots(1, 1, 5))
    first = request(admission, "w1", "POST", "/users/u/memories")
    await settle()
    write = request(admission, "w2", "POST", "/users/u/memories")
    await settle()
    read = request(admission, "r1", "POST", "/users/u/recall")
    await settle()
    assert gate.started == ["w1"]
    gate.done("w1")
    await settle()
    assert gate.started == ["w1", "r1"]  # the read, queued after the write, ran first
    gate.done("r1")
    gate.done("w2")
    await asyncio.gather(first, write, read)
    assert gate.started == ["w1", "r1", "w2"]
    assert admission.slots.running == {"read": 0, "write": 0}


@run
async def test_writes_hold_at_most_their_share_and_reads_pass() -> None:
    gate = Gate()
    admission = Admission(gate, Slots(2, 1, 5))
    w1 = request(admission, "w1", "PUT", "/users/u/facts")
    w2 = request(admission, "w2", "PUT", "/users/u/facts")
    await settle()
    assert gate.started == ["w1"]  # one free slot left, but writes may hold only one
    r1 = request(admission, "r1", "GET", "/users/u/facts")
    await settle()
    assert gate.started == ["w1", "r1"]  # the read takes the slot the write could not
    assert admission.slots.snapshot()["waiting"] == {"read": 0, "write": 1}
    assert admission.slots.snapshot()["running"] == {"read": 1, "write": 1}
    for name in ("r1", "w1", "w2"):
        gate.done(name)
    await asyncio.gather(w1, w2, r1)
    assert gate.started == ["w1", "r1", "w2"]
    assert admission.slots.running == {"read": 0, "write": 0}


@run
async def test_a_request_that_waits_too_long_gets_503_and_never_runs() -> None:
    gate = Gate()
    admission = Admission(gate, Slots(1, 1, 0.05))
    held = request(admission, "r1", "POST", "/users/u/recall")
    await settle()
    refused = await request(admission, "r2", "POST", "/users/u/recall")
    assert refused[0]["status"] == 503
    assert (b"retry-after", b"1") in refused[0]["headers"]
    assert b'"error":"Busy"' in refused[1]["body"]
    assert admission.slots.snapshot()["refused"] == 1
    assert gate.started == ["r1"]
    gate.done("r1")
    await held
    assert admission.slots.running == {"read": 0, "write": 0}


@run
async def test_a_cancelled_waiter_leaks_no_slot() -> None:
    gate = Gate()
    admission = Admission(gate, Slots(1, 1, 5))
    held = request(admission, "w1", "POST", "/users/u/memories")
    await settle()
    gone = request(admission, "r1", "POST", "/users/u/recall")  # its client disconnects while queued
    await settle()
    gone.cancel()
    await settle()
    later = request(admission, "w2", "POST", "/users/u/memories")
    gate.done("w1")
    gate.done("w2")
    await asyncio.gather(held, later)
    assert gate.started == ["w1", "w2"]
    assert gone.cancelled()
    assert admission.slots.running == {"read": 0, "write": 0}


@run
async def test_health_bypasses_a_full_queue() -> None:
    gate = Gate()
    admission = Admission(gate, Slots(1, 1, 5))
    held = request(admission, "w1", "POST", "/users/u/memories")
    await settle()
    gate.done("h")
    health = await request(admission, "h", "GET", "/health")
    assert health[0]["status"] == 200
    gate.done("w1")
    await held


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        Slots(2, 3, 1)


@run
async def test_a_stream_of_reads_cannot_starve_a_write() -> None:
    gate = Gate()
    admission = Admission(gate, Slots(2, 1, 5))
    r1 = request(admission, "r1", "POST", "/users/u/recall")
    r2 = request(admission, "r2", "POST", "/users/u/recall")
    await settle()
    w1 = request(admission, "w1", "POST", "/users/u/memories")
    await settle()
    r3 = request(admission, "r3", "POST", "/users/u/recall")
    await settle()
    gate.done("r1")
    await settle()
    assert gate.started == ["r1", "r2", "w1"]  # the freed slot went to the write, not to the newer read
    r4 = request(admission, "r4", "POST", "/users/u/recall")  # a write runs: reads take the rest again
    gate.done("r2")
    await settle()
    assert gate.started == ["r1", "r2", "w1", "r3"]
    for name in ("w1", "r3", "r4"):
        gate.done(name)
    await asyncio.gather(r1, r2, w1, r3, r4)
    assert admission.slots.running == {"read": 0, "write": 0}
