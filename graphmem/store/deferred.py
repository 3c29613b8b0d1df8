"""Writes taken off the request path: recall's side effects (``Settings.recall_effects="deferred"``).

A request hands its write to :class:`DeferredWriter` and returns; one worker thread per runtime takes every
write waiting (up to ``max_batch``) and commits them together in ONE transaction, each write's statements in
the order it was submitted: natural batching, no waiting window, so a lone write starts at once and a burst
of twenty concurrent recalls costs about one commit instead of twenty. A batch of several writes first locks
every memory it will touch in id order (``recall_effects_lock``), the order formation locks them in, so a
batch and a concurrent writer do not deadlock over memories; the driver's managed transaction retries
transient errors (deadlocks, leader switches) within its retry budget.

Failures: a batch that still fails is logged and written again one write per transaction (except when Neo4j
is unreachable), so one bad write loses only its own effects; a write that fails alone is logged, counted in
``failed`` and dropped, and the worker goes on. No later retry: the effects are soft signals (a
reinforcement, a recall record), and a write retried forever would hold up every later one.

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
from collections.abc import Callable, Sequence
from typing import Protocol

from graphmem.errors import ConnectionFailed
from graphmem.store._bridge import await_only, in_bridge
from graphmem.store.driver import QueryStore, Tx

logger = logging.getLogger(__name__)

MAX_PENDING = 10_000
"""Writes that may be outstanding (queued or being written); one more is written by its caller
(back-pressure, never a drop)."""

MAX_BATCH = 100
"""Writes per transaction at most: bounds how long one batch holds its locks."""

EXIT_FLUSH_SECONDS = 5.0
"""At interpreter exit, a writer that was never closed gets this long to write what is queued."""


class Deferred(Protocol):
    """A write that may wait: its statements (run in a transaction shared with other writes) and the
    memories they lock, as ``(memory id, tenants that may hold it)``."""

    def locks(self) -> Sequence[tuple[str, Sequence[str]]]: ...
    def apply(self, tx: Tx) -> None: ...


_Item = tuple[Deferred, Callable[[], None] | None]


class DeferredWriter:
    """One runtime's background writer (started on the first :meth:`submit`)."""

    def __init__(
        self, store: QueryStore, *, max_pending: int = MAX_PENDING, max_batch: int = MAX_BATCH
    ) -> None:
        self._store = store
        self._max_pending = max_pending
        self._max_batch = max_batch
        self._pending: deque[_Item] = deque()
        self._unfinished = 0  # submitted and not yet written (or dropped)
        self._cond = threading.Condition()
        self._worker: threading.Thread | None = None
        self._closed = False
        self._exit_hook = functools.partial(_flush_at_exit, weakref.ref(self))
        self.batches: list[int] = []  # writes per transaction, the most recent 1,000 (tests, benchmarks)
        self.failed = 0  # writes dropped after failing alone

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

    def _take(self) -> list[_Item] | None:
        with self._cond:
            self._cond.wait_for(lambda: self._pending or self._closed)
            if not self._pending:
                return None
            return [self._pending.popleft() for _ in range(min(self._max_batch, len(self._pending)))]

    def _run(self) -> None:
        while (batch := self._take()) is not None:
            try:
                self._write(batch)
            except BaseException:  # never leave flush() waiting on a dead worker
                logger.exception("the deferred writer failed unexpectedly; its batch is dropped")
                self.failed += len(batch)
            finally:
                with self._cond:
                    self._unfinished -= len(batch)
                    self._cond.notify_all()

    def _write(self, batch: list[_Item]) -> None:
        try:
            self._store.unit_of_work(lambda tx: _apply([item for item, _ in batch], tx))
        except Exception as exc:
            logger.warning("deferred write of %d recall(s) failed: %r", len(batch), exc)
            if len(batch) == 1 or isinstance(exc, ConnectionFailed):
                self.failed += len(batch)
                return
            for one in batch:  # alone, so that one bad write loses only its own effects
                self._write([one])
            return
        self.batches = [*self.batches[-999:], len(batch)]
        for _, on_written in batch:
            if on_written is not None:
                on_written()


def _flush_at_exit(ref: weakref.ref[DeferredWriter]) -> None:
    """A program that ends without ``close()`` still writes what it queued (bounded by a time limit)."""
    writer = ref()
    if writer is not None and not writer._closed and not writer.flush(EXIT_FLUSH_SECONDS):
        logger.warning("exiting with %d recall effect(s) unwritten", writer.pending)


def _apply(items: list[Deferred], tx: Tx) -> None:
    if len(items) > 1:  # lock every memory of the batch in id order before any statement writes
        tenants: dict[str, set[str]] = {}
        for item in items:
            for mid, readable in item.locks():
                tenants.setdefault(mid, set()).update(readable)
        targets = [{"id": mid, "tenants": sorted(tenants[mid])} for mid in sorted(tenants)]
        if targets:
            tx.run("recall_effects_lock", targets=targets)
    for item in items:
        item.apply(tx)
