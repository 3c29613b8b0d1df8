"""Writes taken off the request path: recall's side effects (``Settings.recall_effects="deferred"``).

A request hands its write to :class:`DeferredWriter` and returns; one worker thread per runtime writes the
queued writes in the order they came, **one transaction each**, so a write holds no more locks than the
same write made inline. Batching several recalls into one transaction was built and measured first: under
the REST load (20 clients, remember and recall mixed) a batch holding the locks of up to 100 recalls
deadlocked with concurrent formation ~200 times in 1,000 requests (formation takes its locks over several
statements, so no single lock order serves both), and it made no recall faster on the CPU-bound 2-core
machine (docs/recall.md, Deferred side effects). The driver's managed transaction retries transient errors
(deadlocks, leader switches) within its retry budget.

Failures: a write that still fails is logged, counted in ``failed`` and dropped, and the worker goes on. No
later retry: the effects are soft signals (a reinforcement, a recall record), and a write retried forever
would hold up every later one.

Back-pressure: at most ``max_pending`` writes are outstanding (queued or being written); beyond that
:meth:`DeferredWriter.submit` returns False and the caller writes its own effects at once. Nothing is
dropped for lack of room.

Shutdown: :meth:`flush` waits until everything submitted is written; :meth:`close` flushes and stops the
worker (``GraphMemory.close`` calls it before closing the driver). A program that exits without closing
gets ``EXIT_FLUSH_SECONDS`` (an ``atexit`` hook). Writes still waiting when the process is killed are lost.

Under ``AsyncGraphMemory`` the store is an ``AsyncStore``: the worker thread reaches it through the event
loop (``AsyncStore._await`` hands the transaction to the loop, as for scheduler jobs), and :meth:`flush`
called under the greenlet bridge waits in the loop's executor, so the loop keeps running the worker's
transaction meanwhile.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import logging
import threading
import weakref
from collections import deque
from collections.abc import Callable
from typing import Protocol

from graphmem.store._bridge import await_only, in_bridge
from graphmem.store.driver import QueryStore, Tx

logger = logging.getLogger(__name__)

MAX_PENDING = 10_000
"""Writes that may be outstanding (queued or being written); one more is written by its caller
(back-pressure, never a drop)."""

EXIT_FLUSH_SECONDS = 5.0
"""At interpreter exit, a writer that was never closed gets this long to write what is queued."""


class Deferred(Protocol):
    """A write that may wait: its statements, run in their own transaction."""

    def apply(self, tx: Tx) -> None: ...


_Item = tuple[Deferred, Callable[[], None] | None]


class DeferredWriter:
    """One runtime's background writer (started on the first :meth:`submit`)."""

    def __init__(self, store: QueryStore, *, max_pending: int = MAX_PENDING) -> None:
        self._store = store
        self._max_pending = max_pending
        self._pending: deque[_Item] = deque()
        self._unfinished = 0  # submitted and not yet written (or dropped)
        self._cond = threading.Condition()
        self._worker: threading.Thread | None = None
        self._closed = False
        self._exit_hook = functools.partial(_flush_at_exit, weakref.ref(self))
        self.written = 0  # writes committed (tests, benchmarks)
        self.failed = 0  # writes dropped after failing

    def submit(self, item: Deferred, on_written: Callable[[], None] | None = None) -> bool:
        """Queue ``item`` (``on_written`` runs in the worker once it is committed); False when the queue is
        full or the writer closed: the caller then writes ``item`` itself."""
        with self._cond:
            if self._closed or self._unfinished >= self._max_pending:
                return False
            self._pending.append((item, on_written))
            self._unfinished += 1
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="graphmem-effects", daemon=True)
                self._worker.start()
                atexit.register(self._exit_hook)
            self._cond.notify_all()
        return True

    @property
    def pending(self) -> int:
        """Writes submitted and not yet written."""
        with self._cond:
            return self._unfinished

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every write submitted so far is written (or dropped after failing); False if
        ``timeout`` seconds passed first. Under the async bridge the wait does not block the event loop."""
        if self.pending == 0:
            return True
        if in_bridge():
            loop = asyncio.get_running_loop()
            return await_only(loop.run_in_executor(None, self._wait, timeout))
        return self._wait(timeout)

    def _wait(self, timeout: float | None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._unfinished == 0, timeout)

    def close(self) -> None:
        """Flush, then stop the worker; later submits are refused (their callers write inline)."""
        self.flush()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        atexit.unregister(self._exit_hook)
        worker = self._worker
        if worker is not None and worker is not threading.current_thread() and not in_bridge():
            worker.join(timeout=5.0)

    def _take(self) -> _Item | None:
        with self._cond:
            self._cond.wait_for(lambda: self._pending or self._closed)
            return self._pending.popleft() if self._pending else None

    def _run(self) -> None:
        while (item := self._take()) is not None:
            write, on_written = item
            try:
                self._store.unit_of_work(write.apply)
                self.written += 1
                if on_written is not None:
                    on_written()
            except BaseException as exc:  # logged and dropped; the worker goes on (flush() never hangs)
                logger.warning("a deferred recall write failed and is dropped: %r", exc)
                self.failed += 1
            finally:
                with self._cond:
                    self._unfinished -= 1
                    self._cond.notify_all()


def _flush_at_exit(ref: weakref.ref[DeferredWriter]) -> None:
    """A program that ends without ``close()`` still writes what it queued (bounded by a time limit)."""
    writer = ref()
    if writer is not None and not writer._closed and not writer.flush(EXIT_FLUSH_SECONDS):
        logger.warning("exiting with %d recall effect(s) unwritten", writer.pending)
