"""``AsyncGraphMemory``: the same memory engine on asyncio and the async Neo4j driver.

There is no second copy of the business logic. An ``AsyncGraphMemory`` holds a plain :class:`GraphMemory`
built on :class:`graphmem.store.driver.AsyncStore`; each public method runs the synchronous method in a
greenlet (``graphmem.store._bridge.greenlet_spawn``), and every round trip to Neo4j inside it is awaited on
the event loop.
Embedding runs in the loop's thread pool (graphmem.store.executor_embedder), so a recall never stalls the
loop. Many calls may run at once on one instance (``asyncio.gather``), each in its own greenlet, sharing
the driver's connection pool.

>>> async with AsyncGraphMemory.connect() as mem:
...     await mem.remember("I adopted a dog named Rex", user_id="alice")
...     hits = await mem.recall("what is my pet called?", user_id="alice")
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Coroutine, Generator, Sequence
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

import neo4j

from graphmem.automation.control import Automation
from graphmem.automation.scheduler import Scheduler
from graphmem.config import Settings
from graphmem.dynamics.evolution import Evolution
from graphmem.dynamics.jobs import Jobs
from graphmem.dynamics.topics import Topics
from graphmem.embedding import Embedder
from graphmem.errors import ConfigurationError
from graphmem.facade import Core, Facts, Memories, Temporal, Users
from graphmem.memory import GraphMemory, default_embedder
from graphmem.model.extraction import Extractor
from graphmem.store._bridge import greenlet_spawn
from graphmem.store.connection import checked_driver, resolve_connection
from graphmem.store.driver import AsyncStore
from graphmem.store.executor_embedder import ExecutorEmbedder
from graphmem.store.failures import translate_errors
from graphmem.store.runtime import Runtime

__all__ = [
    "AsyncAutomation",
    "AsyncCore",
    "AsyncFacts",
    "AsyncGraphMemory",
    "AsyncJobs",
    "AsyncMemories",
    "AsyncTemporal",
    "AsyncUsers",
]

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


class AsyncEvolution(_Async[Evolution]):
    """``await mem.automation.evolution.adapt(...)`` etc.: :class:`graphmem.dynamics.evolution.Evolution`."""

    tuning = _bridged(Evolution.tuning)
    history = _bridged(Evolution.history)
    adapt = _bridged(Evolution.adapt)
    set = _bridged(Evolution.set)
    rollback = _bridged(Evolution.rollback)


class AsyncTopics(_Async[Topics]):
    """``await mem.topics.rebuild(...)`` etc.: :class:`graphmem.dynamics.topics.Topics`, awaited."""

    rebuild = _bridged(Topics.rebuild)
    list = _bridged(Topics.list)
    memories = _bridged(Topics.memories)


class AsyncAutomation(_Async[Automation]):
    """``await mem.automation.health()`` etc.: :class:`graphmem.automation.control.Automation`, awaited."""

    @property
    def config_id(self) -> str:
        return self._sync.config_id

    @property
    def evolution(self) -> AsyncEvolution:
        return AsyncEvolution(self._sync.evolution)

    get_config = _bridged(Automation.get_config)
    set_config = _bridged(Automation.set_config)
    runs = _bridged(Automation.runs)
    probe = _bridged(Automation.probe)
    worker_heartbeat = _bridged(Automation.worker_heartbeat)
    health = _bridged(Automation.health)


class AsyncFacts(_Async[Facts]):
    """``await mem.facts.set(...)`` etc.: :class:`graphmem.facade.Facts`, awaited."""

    set = _bridged(Facts.set)
    get = _bridged(Facts.get)
    retract = _bridged(Facts.retract)
    history = _bridged(Facts.history)
    list = _bridged(Facts.list)


class AsyncCore(_Async[Core]):
    """``await mem.core.append(...)`` etc.: :class:`graphmem.facade.Core`, awaited."""

    list = _bridged(Core.list)
    set = _bridged(Core.set)
    append = _bridged(Core.append)
    replace = _bridged(Core.replace)
    history = _bridged(Core.history)


class AsyncMemories(_Async[Memories]):
    """``await mem.memories.update(...)`` etc.: :class:`graphmem.facade.Memories`, awaited."""

    update = _bridged(Memories.update)
    get = _bridged(Memories.get)
    list = _bridged(Memories.list)
    count = _bridged(Memories.count)
    history = _bridged(Memories.history)
    link = _bridged(Memories.link)
    govern = _bridged(Memories.govern)
    feedback = _bridged(Memories.feedback)
    proactive = _bridged(Memories.proactive)


class AsyncUsers(_Async[Users]):
    """``await mem.users.export(...)`` etc.: :class:`graphmem.facade.Users`, awaited."""

    export = _bridged(Users.export)
    export_to = _bridged(Users.export_to)
    delete = _bridged(Users.delete)
    anonymize = _bridged(Users.anonymize)


class AsyncTemporal(_Async[Temporal]):
    """``await mem.temporal.snapshot(...)`` etc.: :class:`graphmem.facade.Temporal`, awaited."""

    timeline = _bridged(Temporal.timeline)
    snapshot = _bridged(Temporal.snapshot)
    diff = _bridged(Temporal.diff)
    audit_log = _bridged(Temporal.audit_log)


class AsyncGraphMemory(_Async[GraphMemory]):
    """:class:`GraphMemory` for asyncio: the same methods, arguments, results and errors, awaited.

    >>> mem = await AsyncGraphMemory.connect()
    >>> hits = await mem.recall("what is my pet called?", user_id="alice")
    >>> await mem.close()
    """

    def __init__(self, memory: GraphMemory) -> None:
        if not isinstance(memory.runtime.store, AsyncStore):  # an async def must not block on the sync driver
            raise ConfigurationError(
                "AsyncGraphMemory needs a GraphMemory on an AsyncStore: `await AsyncGraphMemory.connect()`"
            )
        if memory.runtime.settings.recall_effects == "deferred" and memory.runtime.store.loop is None:
            raise ConfigurationError(  # its background writer is a thread: it reaches Neo4j through the loop
                "recall_effects='deferred' needs an AsyncStore bound to its event loop "
                "(AsyncStore(..., loop=...)), as `await AsyncGraphMemory.connect()` builds it"
            )
        super().__init__(memory)
        self._store = memory.runtime.store
        self._jobs = AsyncJobs(memory.jobs)
        self._automation = AsyncAutomation(memory.automation)
        self._facts = AsyncFacts(memory.facts)
        self._core = AsyncCore(memory.core)
        self._memories = AsyncMemories(memory.memories)
        self._users = AsyncUsers(memory.users)
        self._temporal = AsyncTemporal(memory.temporal)
        self.topics = AsyncTopics(memory.topics)

    @classmethod
    def connect(
        cls,
        uri: str | None = None,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
    ) -> _Connecting:
        """Connect like :meth:`GraphMemory.connect`, with the async driver, bound to the running loop:
        ``mem = await AsyncGraphMemory.connect()``, or ``async with AsyncGraphMemory.connect() as mem:``
        (``async with await ...`` works too)."""
        return _Connecting(cls._open(uri, auth, database, settings, embedder, extractor))

    @classmethod
    async def _open(
        cls,
        uri: str | None,
        auth: tuple[str, str] | None,
        database: str | None,
        settings: Settings | None,
        embedder: Embedder | None,
        extractor: Extractor | None,
    ) -> AsyncGraphMemory:
        settings = settings or Settings()
        target, credentials = await asyncio.to_thread(resolve_connection, uri, auth, settings)
        named = "uri" if uri else "NEO4J_URI"
        driver = checked_driver(named, target, credentials, settings, neo4j.AsyncGraphDatabase.driver)
        try:
            with translate_errors():
                await driver.verify_connectivity()
        except BaseException:
            await driver.close()
            raise
        store = AsyncStore(
            driver,
            database or settings.neo4j_database,
            loop=asyncio.get_running_loop(),
            transaction_timeout=settings.transaction_timeout,
            query_timeout=settings.query_timeout,
        )
        chosen = embedder or default_embedder(settings)
        return cls(GraphMemory(store, ExecutorEmbedder(chosen), settings, extractor))

    async def __aenter__(self) -> AsyncGraphMemory:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def embedder(self) -> Embedder:
        embedder = self._sync.embedder
        return embedder.inner if isinstance(embedder, ExecutorEmbedder) else embedder

    @property
    def jobs(self) -> AsyncJobs:
        return self._jobs

    @property
    def automation(self) -> AsyncAutomation:
        return self._automation

    @property
    def runtime(self) -> Runtime:
        """The synchronous runtime underneath (store: an ``AsyncStore``); see ``GraphMemory.runtime``."""
        return self._sync.runtime

    @property
    def facts(self) -> AsyncFacts:
        return self._facts

    @property
    def core(self) -> AsyncCore:
        return self._core

    @property
    def memories(self) -> AsyncMemories:
        return self._memories

    @property
    def users(self) -> AsyncUsers:
        return self._users

    @property
    def temporal(self) -> AsyncTemporal:
        return self._temporal

    @property
    def scheduler(self) -> Scheduler:
        """The in-process APScheduler (synchronous calls). Its jobs run in APScheduler's threads and reach
        Neo4j through this instance's event loop, which must keep running; ``graphmem worker`` (a separate
        process) is the sturdier home for schedules."""
        return self._sync.scheduler

    async def close(self) -> None:
        """:meth:`GraphMemory.close`, awaited. From another event loop than its own: closed through its
        own, running in another thread; its own not running, a ConfigurationError before anything stops."""
        self._store.check_closable()
        await greenlet_spawn(GraphMemory.close, self._sync)

    flush = _bridged(GraphMemory.flush)
    init = _bridged(GraphMemory.init)
    remember = _bridged(GraphMemory.remember)
    add_messages = _bridged(GraphMemory.add_messages)
    forget = _bridged(GraphMemory.forget)
    recall = _bridged(GraphMemory.recall)
    context = _bridged(GraphMemory.context)
    query = _bridged(GraphMemory.query)


_bridge_missing(AsyncGraphMemory, GraphMemory)
_bridge_missing(AsyncFacts, Facts)
_bridge_missing(AsyncCore, Core)
_bridge_missing(AsyncMemories, Memories)
_bridge_missing(AsyncUsers, Users)
_bridge_missing(AsyncTemporal, Temporal)
_bridge_missing(AsyncJobs, Jobs, skip=("work",))
_bridge_missing(AsyncAutomation, Automation)
_bridge_missing(AsyncEvolution, Evolution)
_bridge_missing(AsyncTopics, Topics)


class _Connecting:
    """What :meth:`AsyncGraphMemory.connect` returns: awaited, the connected memory; as an async context
    manager, the same memory, closed on exit."""

    def __init__(self, opening: Coroutine[Any, Any, AsyncGraphMemory]) -> None:
        self._opening = opening
        self._memory: AsyncGraphMemory | None = None

    def __await__(self) -> Generator[Any, None, AsyncGraphMemory]:
        return self._opening.__await__()

    def __getattr__(self, name: str) -> Any:
        """A memory's method asked of the connection not awaited (``mem = AsyncGraphMemory.connect()``, the
        ``await`` forgotten): say so instead of "'_Connecting' object has no attribute 'recall'"."""
        if not name.startswith("_") and hasattr(AsyncGraphMemory, name):
            raise AttributeError(
                f"{name!r}: AsyncGraphMemory.connect() must be awaited first: "
                "`mem = await AsyncGraphMemory.connect()` or `async with AsyncGraphMemory.connect() as mem:`",
                name=name,
                obj=self,
            )
        raise AttributeError(f"'_Connecting' object has no attribute {name!r}", name=name, obj=self)

    async def __aenter__(self) -> AsyncGraphMemory:
        self._memory = await self._opening
        return self._memory

    async def __aexit__(self, *exc: object) -> None:
        if self._memory is not None:
            await self._memory.close()
