"""The one seam to Neo4j: runs named queries, translates driver errors (graphmem.store.failures), converts
values, and lets Ctrl-C interrupt a sync call cleanly (graphmem.store.interrupts).

Only this module (and the schema step) talks to the driver. Every value travels as a query parameter.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol, TypeVar

import neo4j
import neo4j.exceptions as nex

from graphmem.errors import ConfigurationError
from graphmem.store._bridge import await_only, greenlet_spawn, in_bridge
from graphmem.store.failures import rerun_transient, translate_errors
from graphmem.store.interrupts import interruptible
from graphmem.store.lockdown import check_readonly_plan, refuse_unloaded_gds
from graphmem.store.queries import query
from graphmem.store.strict_vectors import with_strict_vectors
from graphmem.store.values import record_values, wire

logger = logging.getLogger(__name__)

T = TypeVar("T")
Row = dict[str, Any]


def _timed(cypher: str, timeout: float | None) -> neo4j.Query:
    """The statement with a server-side transaction timeout (None or 0: the server's default)."""
    return neo4j.Query(cypher, timeout=timeout or None)


class Tx(Protocol):
    """A transaction handed to unit-of-work functions: runs named queries inside it."""

    def run(self, name: str, /, **params: Any) -> list[Row]: ...


class QueryStore(Protocol):
    """What the use cases need from a store; :class:`Store` (sync driver) and :class:`AsyncStore` (async
    driver, under graphmem.store._bridge) both provide it."""

    database: str

    def read(self, name: str, /, **params: Any) -> list[Row]: ...
    def write(self, name: str, /, **params: Any) -> list[Row]: ...
    def write_auto(self, name: str, /, **params: Any) -> list[Row]: ...
    def unit_of_work(self, work: Callable[[Tx], T]) -> T: ...
    def rehearse(self, work: Callable[[Tx], T]) -> T: ...
    def run_readonly(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]: ...
    def run_statement(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]: ...
    def close(self) -> None: ...


class _DriverTx:
    def __init__(self, tx: neo4j.ManagedTransaction | neo4j.Transaction) -> None:
        self._tx = tx

    def run(self, name: str, /, **params: Any) -> list[Row]:
        result = self._tx.run(query(name), wire(params))
        return [record_values(r) for r in result]


class Store:
    """Runs graphmem's named queries against one database."""

    def __init__(
        self,
        driver: neo4j.Driver,
        database: str = "neo4j",
        *,
        transaction_timeout: float | None = None,
        query_timeout: float | None = None,
    ) -> None:
        self._driver = driver
        self.database = database
        self.transaction_timeout = transaction_timeout
        self.query_timeout = query_timeout

    @property
    def driver(self) -> neo4j.Driver:
        return self._driver

    def close(self) -> None:
        self._driver.close()

    def _execute(
        self, routing: neo4j.RoutingControl, cypher: str, params: Mapping[str, Any], label: str
    ) -> list[Row]:
        started = time.perf_counter()
        with interruptible(), translate_errors():
            records, _, _ = self._driver.execute_query(
                _timed(cypher, self.transaction_timeout),
                wire(dict(params)),
                database_=self.database,
                routing_=routing,
            )
        logger.debug("%s: %d rows in %.1f ms", label, len(records), (time.perf_counter() - started) * 1000)
        return [record_values(r) for r in records]

    def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named read query (read routing, auto-retried on transient errors)."""
        read = neo4j.RoutingControl.READ
        return with_strict_vectors(lambda n: self._execute(read, query(n), params, n), name)

    def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named write query in its own transaction."""
        write = neo4j.RoutingControl.WRITE
        return with_strict_vectors(lambda n: self._execute(write, query(n), params, n), name)

    def unit_of_work(self, work: Callable[[Tx], T]) -> T:
        """Run several named queries in one write transaction: all of them happen, or none."""

        @neo4j.unit_of_work(timeout=self.transaction_timeout or None)
        def transaction(tx: neo4j.ManagedTransaction) -> T:
            return work(_DriverTx(tx))

        with interruptible(), translate_errors(), self._driver.session(database=self.database) as session:
            return session.execute_write(transaction)

    def rehearse(self, work: Callable[[Tx], T]) -> T:
        """Run ``work`` in a write transaction and roll it back: the server plans (and caches) its statements
        and nothing changes. The plan warm-up uses it (graphmem.retrieval.warmup)."""
        with interruptible(), translate_errors(), self._driver.session(database=self.database) as session:
            tx = session.begin_transaction(timeout=self.transaction_timeout or None)
            try:
                return work(_DriverTx(tx))
            finally:
                tx.rollback()  # and closes it (leaving a transaction block would commit)

    def run_readonly(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """The read-only escape hatch: the user's own Cypher in a read transaction, cut at ``query_timeout``,
        refused when its plan calls a denied procedure or function (:func:`check_readonly_plan`)."""

        @neo4j.unit_of_work(timeout=self.query_timeout or None)
        def work(tx: neo4j.ManagedTransaction) -> list[Row]:
            try:
                plan = tx.run("EXPLAIN " + cypher, wire(dict(params or {}))).consume().plan
            except nex.ClientError as exc:
                refuse_unloaded_gds(cypher, exc)
                raise
            check_readonly_plan(plan)
            return [record_values(r) for r in tx.run(cypher, wire(dict(params or {})))]

        with (
            interruptible(),
            translate_errors(),
            self._driver.session(database=self.database, default_access_mode=neo4j.READ_ACCESS) as session,
        ):
            return session.execute_read(work)

    def write_auto(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named write query in an auto-commit transaction (needed by ``CALL { } IN TRANSACTIONS``).

        The batched maintenance statements are idempotent: a transient error (e.g. a deadlock between
        concurrent inner transactions) reruns the statement (:func:`rerun_transient`).
        """
        started = time.perf_counter()

        def translated(statement: str) -> list[neo4j.Record]:
            def once() -> list[neo4j.Record]:  # translated first: a row deleted meanwhile reruns (EntityGone)
                with (
                    interruptible(),
                    translate_errors(),
                    self._driver.session(database=self.database) as session,
                ):
                    return list(session.run(query(statement), wire(params)))

            return rerun_transient(once, statement)

        records = with_strict_vectors(translated, name)
        logger.debug("%s: %d rows in %.1f ms", name, len(records), (time.perf_counter() - started) * 1000)
        return [record_values(r) for r in records]

    def run_statement(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Run one statement given as text (schema DDL only)."""
        return self._execute(neo4j.RoutingControl.WRITE, cypher, params or {}, "statement")


async def _rows(result: neo4j.AsyncResult) -> list[Row]:
    return [record_values(r) async for r in result]


class AsyncTx:
    """A transaction of the async driver, run from the synchronous unit-of-work code
    (graphmem.store._bridge)."""

    def __init__(self, tx: neo4j.AsyncManagedTransaction | neo4j.AsyncTransaction) -> None:
        self._tx = tx

    def run(self, name: str, /, **params: Any) -> list[Row]:
        return await_only(self._run(query(name), params))

    async def _run(self, cypher: str, params: dict[str, Any]) -> list[Row]:
        return await _rows(await self._tx.run(cypher, wire(params)))


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class AsyncStore:
    """:class:`Store` on the async driver: the same synchronous interface, to be called from code run by
    ``graphmem.store._bridge.greenlet_spawn`` (as ``AsyncGraphMemory`` does); each round trip is awaited on
    the event loop through ``await_only``, so the loop keeps serving other tasks meanwhile."""

    def __init__(
        self,
        driver: neo4j.AsyncDriver,
        database: str = "neo4j",
        *,
        loop: asyncio.AbstractEventLoop | None = None,
        transaction_timeout: float | None = None,
        query_timeout: float | None = None,
    ) -> None:
        self._driver = driver
        self.database = database
        self._loop = loop
        self.transaction_timeout = transaction_timeout
        self.query_timeout = query_timeout

    @property
    def driver(self) -> neo4j.AsyncDriver:
        return self._driver

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The driver's event loop, through which other threads reach the store (None: the bridge only)."""
        return self._loop

    def _await(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await on the loop: from the bridge by switching greenlets; from another thread (a job started by
        the in-process scheduler) by handing the coroutine to the driver's loop and waiting for it. From the
        bridge on another event loop than the driver's (its connections belong to that loop), a clear
        :class:`ConfigurationError` instead of asyncio's "attached to a different loop"."""
        if self._loop is not None:
            running = _running_loop()
            if in_bridge() and running is not self._loop:
                coro.close()
                raise ConfigurationError(
                    "this AsyncGraphMemory was connected on another event loop, whose connections it "
                    "holds: connect one on this loop (`await AsyncGraphMemory.connect()` inside it)"
                )
            if not in_bridge() and self._loop.is_running() and running is not self._loop:
                return asyncio.run_coroutine_threadsafe(coro, self._loop).result()
        return await_only(coro)

    def close(self) -> None:
        """Close the driver. Its loop already closed (``asyncio.run`` ended), its connections went with it:
        nothing is left to close, from whichever loop. From the bridge on another event loop, the close runs
        on the driver's loop, running in another thread, and is awaited here; a loop that does not run is
        :meth:`check_closable`'s error."""
        if self._loop is not None and self._loop.is_closed():
            return
        self.check_closable()
        if self._loop is not None and in_bridge() and _running_loop() is not self._loop:
            closing = asyncio.run_coroutine_threadsafe(self._driver.close(), self._loop)
            await_only(asyncio.wrap_future(closing))
            return
        self._await(self._driver.close())

    def check_closable(self) -> None:
        """A :class:`ConfigurationError` when :meth:`close`, called here, could not close the driver: on
        another event loop than the driver's, which is open and not running (its connections can be closed
        on it only). ``AsyncGraphMemory.close`` asks before it stops anything, so the memory stays whole."""
        loop, running = self._loop, _running_loop()
        if loop is None or running in (None, loop) or loop.is_closed() or loop.is_running():
            return
        raise ConfigurationError(
            "this AsyncGraphMemory was connected on another event loop, which is not running: close it on "
            "that loop (`loop.run_until_complete(mem.close())`), where its connections are"
        )

    def _execute(
        self, routing: neo4j.RoutingControl, cypher: str, params: Mapping[str, Any], label: str
    ) -> list[Row]:
        started = time.perf_counter()
        with translate_errors():
            records, _, _ = self._await(
                self._driver.execute_query(
                    _timed(cypher, self.transaction_timeout),
                    wire(dict(params)),
                    database_=self.database,
                    routing_=routing,
                )
            )
        logger.debug("%s: %d rows in %.1f ms", label, len(records), (time.perf_counter() - started) * 1000)
        return [record_values(r) for r in records]

    def read(self, name: str, /, **params: Any) -> list[Row]:
        read = neo4j.RoutingControl.READ
        return with_strict_vectors(lambda n: self._execute(read, query(n), params, n), name)

    def write(self, name: str, /, **params: Any) -> list[Row]:
        write = neo4j.RoutingControl.WRITE
        return with_strict_vectors(lambda n: self._execute(write, query(n), params, n), name)

    def _in_session(
        self, work: Callable[[neo4j.AsyncSession], Coroutine[Any, Any, T]], *, read: bool = False
    ) -> T:
        async def run() -> T:
            mode = neo4j.READ_ACCESS if read else neo4j.WRITE_ACCESS
            async with self._driver.session(database=self.database, default_access_mode=mode) as session:
                return await work(session)

        with translate_errors():
            return self._await(run())

    def unit_of_work(self, work: Callable[[Tx], T]) -> T:
        """One write transaction (retried by the driver on transient errors): ``work`` runs synchronously in
        a nested greenlet, its queries awaited inside the transaction."""

        @neo4j.unit_of_work(timeout=self.transaction_timeout or None)
        async def transaction(tx: neo4j.AsyncManagedTransaction) -> T:
            return await greenlet_spawn(work, AsyncTx(tx))

        return self._in_session(lambda session: session.execute_write(transaction))

    def rehearse(self, work: Callable[[Tx], T]) -> T:
        """:meth:`Store.rehearse` on the async driver: ``work`` in a transaction that is rolled back."""

        async def run(session: neo4j.AsyncSession) -> T:
            tx = await session.begin_transaction(timeout=self.transaction_timeout or None)
            try:
                return await greenlet_spawn(work, AsyncTx(tx))
            finally:
                await tx.rollback()

        return self._in_session(run)

    def run_readonly(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        @neo4j.unit_of_work(timeout=self.query_timeout or None)
        async def work(tx: neo4j.AsyncManagedTransaction) -> list[Row]:
            try:
                explained = await tx.run("EXPLAIN " + cypher, wire(dict(params or {})))
                plan = (await explained.consume()).plan
            except nex.ClientError as exc:
                refuse_unloaded_gds(cypher, exc)
                raise
            check_readonly_plan(plan)
            return await _rows(await tx.run(cypher, wire(dict(params or {}))))

        return self._in_session(lambda session: session.execute_read(work), read=True)

    def write_auto(self, name: str, /, **params: Any) -> list[Row]:
        started = time.perf_counter()

        def run(statement: str) -> list[Row]:
            async def work(session: neo4j.AsyncSession) -> list[Row]:
                return await _rows(await session.run(query(statement), wire(params)))

            return rerun_transient(lambda: self._in_session(work), statement)

        rows = with_strict_vectors(run, name)
        logger.debug("%s: %d rows in %.1f ms", name, len(rows), (time.perf_counter() - started) * 1000)
        return rows

    def run_statement(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return self._execute(neo4j.RoutingControl.WRITE, cypher, params or {}, "statement")
