"""Ctrl-C in the middle of a round trip of the sync API (graphmem.store.interrupts), on the real server.

A SIGINT is raised half-way through sending a message (the patched socket sends half the bytes first), as
when a notebook user interrupts a call whose message is on its way: the call raises KeyboardInterrupt at
once, nothing of it is stored, and the next call on the same GraphMemory works.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from neo4j._async_compat.network import BoltSocketBase

from graphmem import GraphMemory


class MidSend:
    """Raise SIGINT after half of the ``nth`` message longer than 64 bytes has been sent (once armed)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.countdown = 0
        self.handlers: list[Any] = []  # the SIGINT handler in force at each send
        real = BoltSocketBase.sendall

        def sendall(sock: Any, data: Any) -> Any:
            self.handlers.append(signal.getsignal(signal.SIGINT))
            if self.countdown and len(data) > 64:
                self.countdown -= 1
                if not self.countdown:
                    real(sock, bytes(data[: len(data) // 2]))
                    signal.raise_signal(signal.SIGINT)
            return real(sock, data)

        monkeypatch.setattr(BoltSocketBase, "sendall", sendall)


@pytest.fixture()
def default_sigint() -> Iterator[None]:
    """Python's own SIGINT handler, as in a script or a notebook cell."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("nth", [1, 2, 3, 4])
def test_ctrl_c_mid_send_raises_at_once_stores_nothing_and_the_next_call_works(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch, default_sigint: None, nth: int
) -> None:
    mem.remember("I keep my bicycle in the hall", user_id=user_id)
    send = MidSend(monkeypatch)
    send.countdown = nth
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        mem.remember("My kayak is green", user_id=user_id)
    # before, the driver's clean-up waited for a reply to the half message (two minutes) and raised
    # ConnectionFailed in place of the interrupt, or left the connection in its pool mid-protocol
    assert time.monotonic() - started < 30
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    mem.remember("I drink green tea every morning", user_id=user_id)
    stored = sorted(m.content for m in mem.memories.list(user_id))
    assert stored == ["I drink green tea every morning", "I keep my bicycle in the hall"]
    assert mem.query("RETURN 1 AS one") == [{"one": 1}]


def test_ctrl_c_during_a_slow_read_interrupts_it(mem: GraphMemory, default_sigint: None) -> None:
    slow = "UNWIND range(1, 200000000) AS x RETURN count(x) AS n"  # seconds of work on the server

    def press(signum: int, frame: Any) -> None:
        signal.raise_signal(signal.SIGINT)

    before = signal.signal(signal.SIGALRM, press)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            mem.query(slow)
        assert time.monotonic() - started < 30
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert mem.query("RETURN 1 AS one") == [{"one": 1}]


def test_a_handler_of_the_process_own_and_worker_threads_are_left_alone(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def own(signum: int, frame: Any) -> None:  # e.g. a server's graceful shutdown
        raise AssertionError("not raised in this test")

    send = MidSend(monkeypatch)
    before = signal.signal(signal.SIGINT, own)
    try:
        mem.remember("The shed key is under the mat", user_id=user_id)
        assert send.handlers and all(h is own for h in send.handlers)
        assert signal.getsignal(signal.SIGINT) is own
    finally:
        signal.signal(signal.SIGINT, before)
    send.handlers.clear()
    with ThreadPoolExecutor(1) as pool:  # signal handlers can only be set in the main thread
        hits = pool.submit(lambda: mem.recall("where is the shed key?", user_id=user_id, k=1)).result()
    assert hits and "shed key" in hits[0].memory.content
    assert send.handlers and all(h is signal.getsignal(signal.SIGINT) for h in send.handlers)
    assert threading.current_thread() is threading.main_thread()


def test_a_second_ctrl_c_during_the_release_still_frees_the_idempotency_key(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch, default_sigint: None
) -> None:
    """The first Ctrl-C stops the write, a second one the release of its claim: the key is not left held by
    this (live) process; the repeat writes the memory once (before: "still running" for the process's
    life)."""
    mem.remember("I keep my bicycle in the hall", user_id=user_id)
    send = MidSend(monkeypatch)
    store = type(mem.runtime.store)
    real_work, real_write = store.unit_of_work, store.write

    def work(self: Any, fn: Any) -> Any:
        send.countdown = 1  # the memory's write transaction
        return real_work(self, fn)

    def write(self: Any, name: str, /, **params: Any) -> Any:
        if name == "idempotency_release":
            send.countdown = 1  # the release the interrupted call makes
        return real_write(self, name, **params)

    monkeypatch.setattr(store, "unit_of_work", work)
    monkeypatch.setattr(store, "write", write)
    with pytest.raises(KeyboardInterrupt):
        mem.remember("My kayak is green", user_id=user_id, idempotency_key="kayak")
    monkeypatch.setattr(store, "unit_of_work", real_work)
    monkeypatch.setattr(store, "write", real_write)
    monkeypatch.setattr("graphmem.store.idempotency.WAIT_SECONDS", 5.0)
    again = mem.remember("My kayak is green", user_id=user_id, idempotency_key="kayak")
    assert again.content == "My kayak is green"
    assert [m.content for m in mem.memories.list(user_id)].count("My kayak is green") == 1


@pytest.mark.parametrize("where", ["__enter__", "_restore"])
def test_ctrl_c_inside_the_guard_itself_is_one_keyboard_interrupt_and_the_handler_is_restored(
    mem: GraphMemory, monkeypatch: pytest.MonkeyPatch, default_sigint: None, where: str
) -> None:
    """A SIGINT handled while the guard installs or restores its handler (CPython runs a pending handler
    inside signal.signal) is a KeyboardInterrupt, not the CancelledError meant for the driver, and the
    default handler is in force afterwards."""
    from graphmem.store import interrupts

    real = signal.signal
    pressed: list[str] = []

    def signal_then_press(signum: int, handler: Any) -> Any:
        caller = sys._getframe(1).f_code.co_name
        press = caller == where and not pressed
        if press and where == "_restore":  # pending when the guard restores: handled before the change
            pressed.append(caller)
            signal.raise_signal(signal.SIGINT)  # handled here, one frame below the guard's own code
        old = real(signum, handler)
        if press and where == "__enter__":  # arrives just after the guard installed its handler
            pressed.append(caller)
            signal.raise_signal(signal.SIGINT)
        return old

    monkeypatch.setattr(interrupts.signal, "signal", signal_then_press)
    with pytest.raises(KeyboardInterrupt):
        mem.query("RETURN 1 AS one")
    monkeypatch.setattr(interrupts.signal, "signal", real)
    assert pressed == [where]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert mem.query("RETURN 1 AS one") == [{"one": 1}]
