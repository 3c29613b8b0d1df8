"""``AsyncGraphMemory``: the same memory engine on asyncio and the async Neo4j driver.

There is no second copy of the business logic. An ``AsyncGraphMemory`` holds a plain :class:`GraphMemory`
built on :class:`graphmem.store.driver.AsyncStore`; each public method runs the synchronous method in a
greenlet (``graphmem.store._bridge.greenlet_spawn``), and every round trip to Neo4j inside it is awaited on
the event loop.
Embedding runs in the loop's thread pool, so a recall never stalls the loop. Many calls may run at once on
one instance (``asyncio.gather``), each in its own greenlet, sharing the driver's connection pool.

>>> async with await AsyncGraphMemory.connect() as mem:
...     await mem.remember("I adopted a dog named Rex", user_id="alice")
...     hits = await mem.recall("what is my pet called?", user_id="alice")
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Coroutine, Sequence
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

import neo4j

from graphmem.automation.control import Automation
from graphmem.automation.scheduler import Scheduler
from graphmem.config import Settings
from graphmem.dynamics.jobs import Jobs
from graphmem.embedding import Embedder, embed_query_checked, embedder_name
from graphmem.errors import ConfigurationError
from graphmem.memory import DRIVER_OPTIONS, GraphMemory, _resolve_connection, default_embedder
from graphmem.model.extraction import Extractor
from graphmem.store._bridge import await_only, greenlet_spawn, in_bridge
from graphmem.store.driver import AsyncStore, translate_errors

__all__ = ["AsyncAutomation", "AsyncGraphMemory", "AsyncJobs"]

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")


class _Async(Generic[S]):
    """An async face over a synchronous graphmem object whose store is an AsyncStore."""

    def __init__(self, sync: S) -> None:
        self._sync = sync


def _bridged(
    method: Callable[Concatenate[S, P], R],
) -> Callable[Concatenate[_Async[S], P], Coroutine[Any, Any, R]]:
    """``async def name(self, ...)`` running the synchronous ``method`` of ``self._sync`` in a greenlet."""

    async def call(self: _Async[S], /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await greenlet_spawn(method, self._sync, *args, **kwargs)

    call.__name__ = method.__name__
    call.__qualname__ = f"Async{method.__qualname__}"  # AsyncGraphMemory.recall, AsyncJobs.run, ...
    call.__doc__ = method.__doc__
    call.__wrapped__ = method  # type: ignore[attr-defined]  # inspect.signature and help() show the real one
    return call


def _public_methods(cls: type) -> dict[str, Callable[..., Any]]:
    return {
        name: member
        for name, member in vars(cls).items()
        if not name.startswith("_") and inspect.isfunction(member)
    }


def _bridge_missing(async_cls: type, sync_cls: type, *, skip: Sequence[str] = ()) -> None:
    """Give ``async_cls`` a bridged wrapper for every public method of ``sync_cls`` it does not declare:
    a method added to the sync class is available in async at once (typed once it is declared here)."""
    for name, method in _public_methods(sync_cls).items():
        if name not in vars(async_cls) and name not in skip:
            setattr(async_cls, name, _bridged(method))


class _ExecutorEmbedder:
    """Runs the wrapped embedder in the event loop's thread pool when called under the bridge: the CPU work
    of embedding never blocks the loop. Elsewhere (a scheduler thread) it calls the embedder directly."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._dimension: int | None = None

    @staticmethod
    def _off_loop(fn: Callable[[], R]) -> R:
        if not in_bridge():
            return fn()
        return await_only(asyncio.get_running_loop().run_in_executor(None, fn))

    @property
    def dimension(self) -> int:
        if self._dimension is None:  # the first read may load the model
            inner = self.inner
            self._dimension = self._off_loop(lambda: inner.dimension)
        return self._dimension

    @property
    def tokenizer(self) -> Any:
        inner = self.inner
        return self._off_loop(lambda: getattr(inner, "tokenizer", None))

    @property
    def name(self) -> str:
        return embedder_name(self.inner)

    def warm(self) -> None:
        inner = self.inner
        self._off_loop(lambda: getattr(inner, "warm", lambda: None)())

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        inner, batch = self.inner, list(texts)
        return self._off_loop(lambda: inner.embed(batch))

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        inner, batch = self.inner, list(texts)
        return self._off_loop(lambda: embed_query_checked(inner, batch))


class AsyncJobs(_Async[Jobs]):
    """``await mem.jobs.run("decay")`` etc.: :class:`~graphmem.dynamics.jobs.Jobs`, awaited.
    The blocking worker loop
    (``Jobs.work``) has no async form: run ``graphmem worker`` for schedules in a separate process."""

    run = _bridged(Jobs.run)
    restore = _bridged(Jobs.restore)
    list = _bridged(Jobs.list)
    status = _bridged(Jobs.status)
    enable = _bridged(Jobs.enable)
    disable = _bridged(Jobs.disable)
    reconcile = _bridged(Jobs.reconcile)
    clear_heartbeat = _bridged(Jobs.clear_heartbeat)


class AsyncAutomation(_Async[Automation]):
    """``await mem.automation.health()`` etc.: :class:`graphmem.automation.control.Automation`, awaited."""

    @property
    def config_id(self) -> str:
        return self._sync.config_id

    get_config = _bridged(Automation.get_config)
    set_config = _bridged(Automation.set_config)
    runs = _bridged(Automation.runs)
    probe = _bridged(Automation.probe)
    worker_heartbeat = _bridged(Automation.worker_heartbeat)
    health = _bridged(Automation.health)


class AsyncGraphMemory(_Async[GraphMemory]):
    """:class:`GraphMemory` for asyncio: the same methods, arguments, results and errors, awaited.

    >>> mem = await AsyncGraphMemory.connect()
    >>> hits = await mem.recall("what is my pet called?", user_id="alice")
    >>> await mem.close()
    """

    def __init__(self, memory: GraphMemory) -> None:
        if not isinstance(memory._rt.store, AsyncStore):  # an async def must not block on the sync driver
            raise ConfigurationError(
                "AsyncGraphMemory needs a GraphMemory on an AsyncStore: `await AsyncGraphMemory.connect()`"
            )
        super().__init__(memory)
        self._jobs = AsyncJobs(memory.jobs)
        self._automation = AsyncAutomation(memory.automation)

    @classmethod
    async def connect(
        cls,
        uri: str | None = None,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
    ) -> AsyncGraphMemory:
        """Connect like :meth:`GraphMemory.connect`, with the async driver, bound to the running loop."""
        settings = settings or Settings()
        target, credentials = await asyncio.to_thread(_resolve_connection, uri, auth, settings)
        driver = neo4j.AsyncGraphDatabase.driver(target, auth=credentials, **DRIVER_OPTIONS)
        try:
            with translate_errors():
                await driver.verify_connectivity()
        except BaseException:
            await driver.close()
            raise
        store = AsyncStore(driver, database or settings.neo4j_database, loop=asyncio.get_running_loop())
        chosen = embedder or default_embedder(settings)
        return cls(GraphMemory(store, _ExecutorEmbedder(chosen), settings, extractor))

    async def __aenter__(self) -> AsyncGraphMemory:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def embedder(self) -> Embedder:
        embedder = self._sync.embedder
        return embedder.inner if isinstance(embedder, _ExecutorEmbedder) else embedder

    @property
    def jobs(self) -> AsyncJobs:
        return self._jobs

    @property
    def automation(self) -> AsyncAutomation:
        return self._automation

    @property
    def scheduler(self) -> Scheduler:
        """The in-process APScheduler (synchronous calls). Its jobs run in APScheduler's threads and reach
        Neo4j through this instance's event loop, which must keep running; ``graphmem worker`` (a separate
        process) is the sturdier home for schedules."""
        return self._sync.scheduler

    close = _bridged(GraphMemory.close)
    init = _bridged(GraphMemory.init)
    remember = _bridged(GraphMemory.remember)
    add_messages = _bridged(GraphMemory.add_messages)
    set_fact = _bridged(GraphMemory.set_fact)
    retract_fact = _bridged(GraphMemory.retract_fact)
    get_fact = _bridged(GraphMemory.get_fact)
    fact_history = _bridged(GraphMemory.fact_history)
    link = _bridged(GraphMemory.link)
    forget = _bridged(GraphMemory.forget)
    core_blocks = _bridged(GraphMemory.core_blocks)
    set_core_block = _bridged(GraphMemory.set_core_block)
    core_append = _bridged(GraphMemory.core_append)
    core_replace = _bridged(GraphMemory.core_replace)
    core_history = _bridged(GraphMemory.core_history)
    recall = _bridged(GraphMemory.recall)
    context = _bridged(GraphMemory.context)
    proactive = _bridged(GraphMemory.proactive)
    feedback = _bridged(GraphMemory.feedback)
    query = _bridged(GraphMemory.query)
    update_memory = _bridged(GraphMemory.update_memory)
    memory_history = _bridged(GraphMemory.memory_history)
    timeline = _bridged(GraphMemory.timeline)
    snapshot = _bridged(GraphMemory.snapshot)
    diff = _bridged(GraphMemory.diff)
    audit_log = _bridged(GraphMemory.audit_log)
    export_user = _bridged(GraphMemory.export_user)
    delete_user = _bridged(GraphMemory.delete_user)
    anonymize_user = _bridged(GraphMemory.anonymize_user)
    govern_memory = _bridged(GraphMemory.govern_memory)


_bridge_missing(AsyncGraphMemory, GraphMemory)
_bridge_missing(AsyncJobs, Jobs, skip=("work",))
_bridge_missing(AsyncAutomation, Automation)
