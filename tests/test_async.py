"""What only the async API has: many calls at once on one instance, a loop that stays responsive while
recall embeds, the in-process scheduler reaching the async driver, and a clear error for misuse."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import disposable

from graphmem import (
    AsyncGraphMemory,
    ConfigurationError,
    GraphMemory,
    OnnxEmbedder,
    StoreError,
    VersionConflict,
)
from graphmem.automation.scheduler import Scheduler

TOPICS = [
    "I adopted a dog named Rex",
    "I work as an accountant in Leeds",
    "My favourite colour is green",
    "I play the cello in an orchestra",
    "I am allergic to peanuts",
    "My sister lives in Lisbon",
    "I drive an old red Volvo",
    "I run a marathon every spring",
    "I grow tomatoes on my balcony",
    "I collect vintage postage stamps",
]
QUERIES = [
    "what is my pet called?",
    "what is my job?",
    "which colour do I like?",
    "which instrument do I play?",
    "what food allergy do I have?",
    "where does my sister live?",
    "what car do I drive?",
    "which race do I run?",
    "what do I grow at home?",
    "what do I collect?",
]


def test_concurrent_calls_on_one_instance_are_all_correct(server: Any, embedder: Any) -> None:
    users = [disposable(f"test-{uuid.uuid4()}"), disposable(f"test-{uuid.uuid4()}")]

    async def scenario() -> None:
        async with await AsyncGraphMemory.connect(embedder=embedder) as mem:
            # one session per fact: concurrent writes into one session have no defined turn order, so
            # each memory's "previous turn" (its context key, its FOLLOWS edge) would be arbitrary
            stored = await asyncio.gather(
                *[mem.remember(t, user_id=u, session_id=f"s{i}") for u in users for i, t in enumerate(TOPICS)]
            )
            assert len({m.id for m in stored}) == 20
            assert all(m.content == t for m, t in zip(stored, TOPICS * 2, strict=True))
            by_content = {(m.user_id, m.content): m.id for m in stored}
            hits = await asyncio.gather(
                *[mem.recall(q, user_id=u, k=3, reinforce=False) for u in users for q in QUERIES]
            )
            expected = [by_content[(u, t)] for u in users for t in TOPICS]
            # each answer among its call's own top 3 (top-1 ranking is retrieval's concern: concurrent
            # writes into one user make a star of cross-session FOLLOWS edges, which favours its centre)
            assert all(e in [hit.memory.id for hit in h] for e, h in zip(expected, hits, strict=True))
            assert all(
                hit.memory.user_id == u
                for u, h in zip([u for u in users for _ in QUERIES], hits)
                for hit in h
            )
            # transactions too: facts written at once, and retries of one idempotent call write once
            facts = await asyncio.gather(*[mem.facts.set(users[0], f"k{i}", f"v{i}") for i in range(20)])
            assert [f.value for f in facts] == [f"v{i}" for i in range(20)]
            read = await asyncio.gather(*[mem.facts.get(users[0], f"k{i}") for i in range(20)])
            assert [f.id if f else None for f in read] == [f.id for f in facts]
            retries = await asyncio.gather(
                *[
                    mem.remember("The meeting moved to Friday", user_id=users[1], idempotency_key="k")
                    for _ in range(8)
                ]
            )
            assert len({m.id for m in retries}) == 1
            rows = await mem.query("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": users[1]})
            assert rows == [{"n": len(TOPICS) + 1}]
            # concurrent edits of one core block: one wins per version, the rest conflict, it never forks
            await mem.core.set(users[0], "notes", "start")
            edits = await asyncio.gather(
                *[mem.core.append(users[0], "notes", f"line {i}") for i in range(10)], return_exceptions=True
            )
            assert all(isinstance(e, VersionConflict) for e in edits if isinstance(e, BaseException))
            won = sum(not isinstance(e, BaseException) for e in edits)
            live = await mem.query(
                "MATCH (m:CoreBlock {user_id: $u}) WHERE m.expired_at IS NULL RETURN m.version AS v",
                {"u": users[0]},
            )
            assert won >= 1 and live == [{"v": 1 + won}]
            for u in users:
                await mem.users.delete(u)

    asyncio.run(scenario())


class SlowEmbedder:
    """The real embedder behind a blocking 1 s (as a big model on a slow CPU would be)."""

    def __init__(self, inner: OnnxEmbedder) -> None:
        self.inner = inner

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        time.sleep(1.0)
        return self.inner.embed(texts)


def test_the_event_loop_keeps_ticking_while_recall_embeds(
    server: Any, embedder: OnnxEmbedder, user_id: str
) -> None:
    async def scenario() -> tuple[float, int]:
        async with await AsyncGraphMemory.connect(embedder=SlowEmbedder(embedder)) as mem:
            await mem.remember("I adopted a dog named Rex", user_id=user_id)
            ticks: list[float] = []
            done = asyncio.Event()

            async def ticker() -> None:
                while not done.is_set():
                    ticks.append(time.perf_counter())
                    await asyncio.sleep(0.01)

            task = asyncio.create_task(ticker())
            await asyncio.sleep(0)
            started = time.perf_counter()
            hits = await mem.recall("what is my pet called?", user_id=user_id)
            elapsed = time.perf_counter() - started
            done.set()
            await task
            assert hits and hits[0].memory.content == "I adopted a dog named Rex"
            assert elapsed >= 1.0  # the slow embed did happen inside the recall
            gaps = [b - a for a, b in itertools.pairwise(ticks)]
            await mem.users.delete(user_id)
            return max(gaps), len(ticks)

    worst_gap, count = asyncio.run(scenario())
    # on the loop, the embed would stall it for 1 s; off it, only scheduling noise (2 shared cores) remains
    assert count >= 20 and worst_gap < 0.5, (worst_gap, count)


def test_the_in_process_scheduler_reaches_the_async_driver(
    server: Any, embedder: OnnxEmbedder, user_id: str
) -> None:
    async def scenario() -> list[Any]:
        async with await AsyncGraphMemory.connect(embedder=embedder) as mem:
            await mem.remember("I adopted a dog named Rex", user_id=user_id)
            # APScheduler's thread runs the sync job code; each query hops onto this loop
            sched = Scheduler(lambda name: mem._sync.jobs.run(name, user_id=user_id, trigger="schedule"))
            sched.start()
            try:
                sched.add("review", "every 1s")
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and not await mem.automation.runs(
                    5, job="review", user_id=user_id
                ):
                    await asyncio.sleep(0.2)
            finally:
                await asyncio.to_thread(sched.shutdown)
            runs = await mem.automation.runs(5, job="review", user_id=user_id)
            await mem.users.delete(user_id)
            return runs

    runs = asyncio.run(scenario())
    assert runs and runs[0].trigger == "schedule" and runs[0].status == "success"


def test_the_async_store_outside_the_bridge_is_a_clear_error(
    server: Any, embedder: Any, user_id: str
) -> None:
    async def scenario() -> None:
        async with await AsyncGraphMemory.connect(embedder=embedder) as mem:
            with pytest.raises(ConfigurationError, match="AsyncGraphMemory"):
                mem._sync.facts.get(user_id, "city")  # the sync facade called directly on the loop
            assert await mem.facts.get(user_id, "city") is None

    asyncio.run(scenario())


def test_an_async_facade_over_the_sync_driver_is_refused(mem: Any) -> None:
    with pytest.raises(ConfigurationError, match="AsyncStore"):
        AsyncGraphMemory(mem)


# A call cancelled mid-I/O makes the neo4j async driver drop that connection as defunct; its socket is closed
# by the garbage collector, not at once, which pytest reports as an unraisable ResourceWarning. That is the
# driver's documented behaviour on cancellation; what this test checks is that graphmem stays usable.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_cancelled_calls_leave_the_instance_usable(server: Any, embedder: OnnxEmbedder, user_id: str) -> None:
    async def scenario() -> None:
        async with await AsyncGraphMemory.connect(embedder=embedder) as mem:
            await mem.remember("I adopted a dog named Rex", user_id=user_id)
            completed = 0
            for delay in (0.001, 0.01, 0.03, 0.06, 0.1):
                try:
                    await asyncio.wait_for(mem.remember(f"cancelled at {delay}", user_id=user_id), delay)
                    completed += 1
                except TimeoutError:
                    pass
            rows = await mem.query("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": user_id})
            # a call cancelled while its commit was in flight may have landed: at least the completed ones
            assert 1 + completed <= rows[0]["n"] <= 6
            hits = await mem.recall("what is my pet called?", user_id=user_id)
            assert hits[0].memory.content == "I adopted a dog named Rex"
            await mem.users.delete(user_id)

    asyncio.run(scenario())


def test_a_stored_vector_the_cosine_refuses_does_not_fail_async_recall(server: Any, embedder: Any) -> None:
    """The async store reruns a statement refused for a NaN vector in its strict form, as the sync one."""
    user = disposable(f"test-{uuid.uuid4()}")

    async def scenario() -> None:
        async with await AsyncGraphMemory.connect(embedder=embedder) as mem:
            stored = [await mem.remember(t, user_id=user, session_id="s") for t in TOPICS[:4]]
            with GraphMemory.connect(embedder=embedder) as sync:  # by hand: the API never writes a NaN
                sync.runtime.store.run_statement(
                    "MATCH (m:Memory {id: $id}) SET m.embedding = [i IN range(1, 384) | 0.0 / 0.0]",
                    {"id": stored[0].id},
                )
            hits = await mem.recall(QUERIES[1], user_id=user, k=3, reinforce=False)
            assert hits and hits[0].memory.id == stored[1].id

    asyncio.run(scenario())


def test_an_async_process_warms_up(server: Any, embedder: Any, user_id: str) -> None:
    """`await mem.warm()` runs the synchronous warm-up over the async driver: plans, model, freeze."""
    import gc

    async def scenario() -> float:
        async with await AsyncGraphMemory.connect(embedder=embedder) as mem:
            gc.unfreeze()
            try:
                seconds = await mem.warm()
                assert gc.get_freeze_count() > 10_000
            finally:
                gc.unfreeze()
            assert await mem.recall("anything", user_id=user_id) == []  # nothing was written for anyone
            return seconds

    assert asyncio.run(scenario()) > 0


def test_connect_is_awaitable_and_an_async_context_manager(server: Any, embedder: Any) -> None:
    """``async with AsyncGraphMemory.connect()`` (what a new user writes first) and ``mem = await ...`` both
    work; the context manager closes the memory it opened."""

    async def run() -> None:
        async with AsyncGraphMemory.connect(embedder=embedder) as mem:
            assert isinstance(mem, AsyncGraphMemory)
            assert await mem.facts.list("nobody-" + uuid.uuid4().hex) == []
        with pytest.raises(StoreError, match="memory is closed"):  # closed on exit: no more queries
            await mem.facts.list("nobody")
        await mem.close()  # closing twice does nothing
        opened = await AsyncGraphMemory.connect(embedder=embedder)
        assert isinstance(opened, AsyncGraphMemory)
        await opened.close()
        forgotten = AsyncGraphMemory.connect(embedder=embedder)  # the `await` left out: a clear error
        with pytest.raises(AttributeError, match=r"'recall': AsyncGraphMemory.connect\(\) must be awaited"):
            forgotten.recall
        assert not hasattr(forgotten, "nothing_of_a_memory")
        memory = await forgotten  # awaited after all, it connects
        await memory.close()

    asyncio.run(run())


def test_an_instance_used_on_another_event_loop_is_a_clear_error(server: Any, embedder: Any) -> None:
    """Used from another event loop than the one it was connected on: a ConfigurationError saying so, not
    asyncio's "Future attached to a different loop"; its own loop still serves it and closes it."""

    async def connect() -> AsyncGraphMemory:
        return await AsyncGraphMemory.connect(embedder=embedder)

    async def use(mem: AsyncGraphMemory) -> list[Any]:
        return await mem.facts.list("nobody-" + uuid.uuid4().hex)

    loop = asyncio.new_event_loop()
    try:
        mem = loop.run_until_complete(connect())
        with pytest.raises(ConfigurationError, match="another event loop"):
            asyncio.run(use(mem))
        assert loop.run_until_complete(use(mem)) == []
        loop.run_until_complete(mem.close())
    finally:
        loop.close()


# The first loop ends with the driver open (the misuse under test): its sockets are dropped by the garbage
# collector, which pytest reports as unraisable ResourceWarnings.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_instance_whose_loop_ended_is_refused_and_closes_quietly(server: Any, embedder: Any) -> None:
    """Connected inside one ``asyncio.run`` and used inside the next (a common first mistake): the same
    clear error; closing it afterwards does not fail (its connections ended with their loop)."""
    import gc

    async def connect() -> AsyncGraphMemory:
        return await AsyncGraphMemory.connect(embedder=embedder)

    async def use(mem: AsyncGraphMemory) -> None:
        with pytest.raises(ConfigurationError, match="another event loop"):
            await mem.recall("anything", user_id="nobody-" + uuid.uuid4().hex)
        await mem.close()

    mem = asyncio.run(connect())
    asyncio.run(use(mem))
    del mem
    gc.collect()  # the abandoned sockets' warnings, here, under this test's filter


def test_an_instance_closed_from_another_loop_closes_through_its_own(server: Any, embedder: Any) -> None:
    """Its loop running in another thread (an application's), closed from a second loop (a shutdown hook's
    ``asyncio.run``): the close runs on its own loop and the driver is closed. It raised ConfigurationError
    ("connect one on this loop") and left the driver open."""

    async def connect() -> AsyncGraphMemory:
        return await AsyncGraphMemory.connect(embedder=embedder)

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever)
    thread.start()
    try:
        mem = asyncio.run_coroutine_threadsafe(connect(), loop).result()
        asyncio.run(mem.close())
        with pytest.raises(StoreError, match="this memory is closed"):
            asyncio.run_coroutine_threadsafe(mem.facts.list("nobody-" + uuid.uuid4().hex), loop).result()
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def test_an_instance_closed_from_another_loop_while_its_own_is_stopped_stays_whole(
    server: Any, embedder: Any
) -> None:
    """Its own loop open but not running: nothing could close its connections. A ConfigurationError saying
    where to close it, raised before anything stops (the scheduler was shut down and the error told the
    caller to connect again), so closing it on its own loop afterwards closes all of it."""
    loop = asyncio.new_event_loop()
    try:
        mem = loop.run_until_complete(AsyncGraphMemory.connect(embedder=embedder))
        mem.scheduler.start(paused=True)
        with pytest.raises(ConfigurationError, match=r"not running: close it on that loop"):
            asyncio.run(mem.close())
        assert mem.scheduler.running
        loop.run_until_complete(mem.close())
        assert not mem.scheduler.running
        with pytest.raises(StoreError, match="this memory is closed"):
            loop.run_until_complete(mem.facts.list("nobody-" + uuid.uuid4().hex))
    finally:
        loop.close()


def test_a_closed_sync_memory_says_so(server: Any, embedder: Any) -> None:
    """A call after ``close()`` names the cause (it said "Driver closed", the neo4j driver's words)."""
    with GraphMemory.connect(embedder=embedder) as mem:
        pass
    with pytest.raises(StoreError, match=r"this memory is closed \(close\(\) was called"):
        mem.facts.list("nobody")
    mem.close()
