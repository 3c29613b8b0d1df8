"""Ctrl-C during a call of the synchronous driver.

A KeyboardInterrupt raised in the middle of a round trip (half a message sent, a reply half read) leaves the
connection mid-protocol, and the sync neo4j driver's clean-up then talks on it: it waits for a reply the
server will never send (two minutes, until the read times out) and raises ``ServiceUnavailable`` in place
of the interrupt, or puts the connection back in its pool for a later call to fail on. The driver has a
clean path for an interruption, the one it takes for ``asyncio.CancelledError`` (its sync code is generated
from its async code): the connection is killed at once and never reused. While a store call runs in the
main thread under Python's default SIGINT handler, :class:`interruptible` lets Ctrl-C take that path and
raises KeyboardInterrupt once the driver has let go. A process with its own SIGINT handler (asyncio's
runner, a server) keeps it untouched.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from types import FrameType, TracebackType


class interruptible:
    """Turn Ctrl-C into the driver's cancellation while the block runs (see the module's text)."""

    __slots__ = ("_active", "_exited", "_pressed")

    def __init__(self) -> None:
        self._active = self._exited = self._pressed = False

    def _cancel(self, signum: int, frame: FrameType | None) -> None:
        self._pressed = True
        if _installing(frame):  # they raise KeyboardInterrupt themselves
            return
        if self._exited:  # left installed (cannot happen through the statements above; repaired if it did)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            raise KeyboardInterrupt
        raise asyncio.CancelledError("interrupted (Ctrl-C)")

    def __enter__(self) -> None:
        if threading.current_thread() is threading.main_thread():
            # nested calls find this handler installed, not the default one, and leave it
            self._active = signal.getsignal(signal.SIGINT) is signal.default_int_handler
            if self._active:
                signal.signal(signal.SIGINT, self._cancel)
                if self._pressed:  # pressed while installing: no call starts
                    self._restore()
                    raise KeyboardInterrupt

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self._active:
            return
        self._restore()
        if self._pressed:  # whatever the driver made of it (it may have finished the round trip first)
            raise KeyboardInterrupt(
                "interrupted during a call to Neo4j: its connection was closed, and a write may or may not "
                "have committed (repeat it with the same idempotency key to have it written once)"
            ) from exc

    def _restore(self) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        self._exited = True


def _installing(frame: FrameType | None) -> bool:
    """Whether the signal arrived in the guard's own code (or one call below it, e.g. a trace function)."""
    for _ in range(2):
        if frame is None:
            return False
        if frame.f_code in _OWN:
            return True
        frame = frame.f_back
    return False


_OWN = frozenset(
    f.__code__ for f in (interruptible.__enter__, interruptible.__exit__, interruptible._restore)
)
"""Where a SIGINT only marks the call interrupted: a CancelledError raised there would escape the guard."""
