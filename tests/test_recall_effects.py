"""Deferred recall effects (``Settings.recall_effects="deferred"``, graphmem.store.deferred), on the real
server: the same writes as inline mode once flushed, a burst written one recall per transaction, nothing
lost on close, a failing write logged without stopping later ones, and the servers' defaults."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from graphmem import AsyncGraphMemory, GraphMemory, Settings
from graphmem.adapters.rest import create_app
from graphmem.cli.common import serving
from graphmem.formation import writer as formation
from graphmem.formation.drafts import MemoryDraft
from graphmem.retrieval.recall import RecallRequest, recall
from graphmem.store.driver import QueryStore, Tx

T = TypeVar("T")
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=2)
FACTS = [
    "I adopted a beagle called Rex from the shelter",
    "Rex chewed my running shoes this morning",
    "I walk Rex in the park every evening",
    "My sister Emma lives in Lisbon",
    "Emma is visiting me in June",
    "Emma works as a nurse in a Lisbon hospital",
    "I play the cello in a small orchestra",
    "Our orchestra rehearses on Thursday nights",
    "I grow tomatoes and basil on my balcony",
    "The basil on my balcony died in the heat",
]
QUERIES = [
    "what is my dog called?",
    "where does my sister live?",
    "what do I grow?",
    "what is my dog called?",
]
CUES = ["tell me about Rex", "Emma", "basil on the balcony", "tell me about Rex"]  # with competitors at k=2
KEY = "effects-test-key"


class GatedStore:
    """The real store; transactions wait until ``gate`` opens (holds the background writer back so that a
    test knows what is queued), and ``transactions`` counts the committed ones."""

    def __init__(self, inner: QueryStore) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.transactions = 0
        self.waiting = 0  # transactions that reached the gate

    def unit_of_work(self, work: Callable[[Tx], T]) -> T:
        self.waiting += 1
        assert self.gate.wait(30), "the gate was never opened"
        result = self.inner.unit_of_work(work)
        self.transactions += 1
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _client(mem: GraphMemory, store: Any = None, **settings: Any) -> GraphMemory:
    """A client on ``mem``'s driver (never closed: the driver is shared) with other settings."""
    return GraphMemory(
        store or mem.runtime.store, mem.embedder, mem.runtime.settings.model_copy(update=settings)
    )


@pytest.fixture()
def deferred(mem: GraphMemory) -> Iterator[GraphMemory]:
    client = _client(mem, recall_effects="deferred")
    yield client
    client.runtime.deferred.close()


def _ingest(mem: GraphMemory, user_id: str, facts: list[str] = FACTS) -> None:
    drafts = [MemoryDraft(content=f, user_id=user_id, session_id="s1") for f in facts]
    formation.form(mem.runtime, drafts, now=T0)


def _request(query: str, user_id: str, k: int = 3) -> RecallRequest:
    return RecallRequest(query=query, user_id=user_id, k=k, as_of=None, hops=1, views=None, reinforce=True)


def _state(mem: GraphMemory, user_id: str) -> dict[str, Any]:
    """Everything recall's effects touch, keyed by content (the two tenants' ids differ)."""
    memories = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m {.content, .access_count, .strength,"
        " .recall_hits, .recall_misses, .inhibition, .inhibited_at, .last_accessed_at, .decay_due} AS m",
        {"u": user_id},
    )
    content = {r["id"]: r["m"]["content"] for r in memories}
    edges = mem.query(
        "MATCH (a:Memory)-[r:RELATED_TO]->(b:Memory) WHERE a.user_id = $u"
        " RETURN a.content AS a, b.content AS b, r.weight AS w, r.weight_base AS base,"
        " r.weight_updated_at AS at",
        {"u": user_id},
    )
    events = mem.query(
        "MATCH (r:RecallEvent) WHERE r.user_id = $u RETURN r {.query, .memory_ids, .levels, .scores, .intent,"
        " .k, .at} AS e ORDER BY r.at, r.query",
        {"u": user_id},
    )
    return {
        "memories": sorted((r["m"] for r in memories), key=lambda m: m["content"]),
        "edges": sorted(edges, key=lambda e: (e["a"], e["b"])),
        "events": [e["e"] | {"memory_ids": [content[i] for i in e["e"]["memory_ids"]]} for e in events],
    }


def test_deferred_effects_are_exactly_the_inline_ones(
    mem: GraphMemory, deferred: GraphMemory, user_id: str
) -> None:
    inline_user, deferred_user = f"{user_id}-inline", f"{user_id}-deferred"
    _ingest(mem, inline_user)
    _ingest(mem, deferred_user)
    for i, query in enumerate(CUES):
        now = NOW + timedelta(hours=i)
        reinforced = recall(mem.runtime, _request(query, inline_user, k=2), now=now)
        before = recall(deferred.runtime, _request(query, deferred_user, k=2), now=now)
        assert [h.memory.content for h in before] == [h.memory.content for h in reinforced]
        if i == 0:  # inline returns the reinforced state, deferred the state before this recall
            assert [h.memory.access_count for h in reinforced] == [1] * len(reinforced)
            assert [h.memory.access_count for h in before] == [0] * len(before)
        assert deferred.flush(timeout=30)
    expected, found = _state(mem, inline_user), _state(mem, deferred_user)
    assert any(m["recall_misses"] for m in expected["memories"])  # inhibition of competitors is compared too
    assert any(e["at"] is not None for e in expected["edges"])  # and co-recall
    assert len(expected["events"]) == len(CUES)
    assert found["memories"] == expected["memories"] and found["edges"] == expected["edges"]
    for one, other in zip(found["events"], expected["events"], strict=True):
        # full-text scores read index-wide statistics, which the other tenant's memories move by an ulp
        assert one.pop("scores") == pytest.approx(other.pop("scores"), rel=1e-9)
        assert one == other


def test_a_burst_is_written_one_recall_per_transaction_with_the_same_result(
    mem: GraphMemory, user_id: str
) -> None:
    """Concurrent recalls queue behind a held writer; once it goes on, each recall's effects are one
    transaction (no more locks held than inline), and the result equals the same recalls inline."""
    n, facts = 8, FACTS[:4]
    inline_user, deferred_user = f"{user_id}-inline", f"{user_id}-deferred"
    _ingest(mem, inline_user, facts)
    _ingest(mem, deferred_user, facts)
    store = GatedStore(mem.runtime.store)
    client = _client(mem, store, recall_effects="deferred")
    try:
        for _ in range(n):
            assert len(recall(mem.runtime, _request(QUERIES[0], inline_user, k=10), now=NOW)) == len(facts)
        with ThreadPoolExecutor(4) as pool:
            hits = list(
                pool.map(
                    lambda _: recall(client.runtime, _request(QUERIES[0], deferred_user, k=10), now=NOW),
                    range(n),
                )
            )
        assert all(len(h) == len(facts) for h in hits)
        assert client.runtime.deferred.pending == n and store.transactions == 0
        store.gate.set()
        assert client.flush(timeout=30)
    finally:
        store.gate.set()
        client.runtime.deferred.close()
    assert store.transactions == client.runtime.deferred.written == n
    expected, found = _state(mem, inline_user), _state(mem, deferred_user)
    assert [m["access_count"] for m in found["memories"]] == [n] * len(facts)
    for kind in ("memories", "edges"):
        assert found[kind] == expected[kind]
    assert len(found["events"]) == len(expected["events"]) == n


def test_close_writes_what_is_queued(mem: GraphMemory, embedder: Any, user_id: str) -> None:
    _ingest(mem, user_id)
    own = GraphMemory.connect(settings=Settings(recall_effects="deferred"), embedder=embedder)
    store = GatedStore(own.runtime.store)
    client = GraphMemory(store, embedder, own.runtime.settings)  # type: ignore[arg-type]
    for query in QUERIES:
        assert client.recall(query, user_id=user_id, k=3)
    assert client.runtime.deferred.pending == len(QUERIES)  # all held back by the gate
    threading.Timer(0.3, store.gate.set).start()
    client.close()  # flushes (through the gate), then closes the driver
    assert store.transactions >= 1
    assert len(_state(mem, user_id)["events"]) == len(QUERIES)
    rex = mem.query(
        "MATCH (m:Memory {content: $c}) WHERE m.user_id = $u RETURN m.access_count AS n",
        {"c": FACTS[0], "u": user_id},
    )
    assert rex == [{"n": 2}]  # the dog question was asked twice


EXITING = """
import sys
from graphmem import GraphMemory, Settings
mem = GraphMemory.connect(settings=Settings(recall_effects="deferred"))
for query in sys.argv[2:]:
    assert mem.recall(query, user_id=sys.argv[1], k=3)
"""  # ends without close(): the atexit hook writes what is queued


def test_a_program_that_forgets_close_still_writes_its_effects(mem: GraphMemory, user_id: str) -> None:
    _ingest(mem, user_id)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", EXITING, user_id, *QUERIES],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(_state(mem, user_id)["events"]) == len(QUERIES)


class _Failing:
    """A queued write that fails inside its transaction."""

    def apply(self, tx: Tx) -> None:
        raise RuntimeError("this write fails")


def test_a_failing_write_is_logged_and_later_writes_land(
    mem: GraphMemory, user_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    _ingest(mem, user_id)
    store = GatedStore(mem.runtime.store)
    client = _client(mem, store, recall_effects="deferred")
    writer = client.runtime.deferred
    try:
        with caplog.at_level(logging.WARNING, logger="graphmem.store.deferred"):
            recall(client.runtime, _request(QUERIES[0], user_id), now=NOW)  # the writer takes it, held
            assert writer.submit(_Failing())
            recall(client.runtime, _request(QUERIES[0], user_id), now=NOW + timedelta(hours=1))
            store.gate.set()  # first, failing (dropped), second
            assert client.flush(timeout=30)
            recall(client.runtime, _request(QUERIES[0], user_id), now=NOW + timedelta(hours=2))
            assert client.flush(timeout=30)
    finally:
        store.gate.set()
        writer.close()
    assert "this write fails" in caplog.text
    assert writer.failed == 1
    effects = client.automation.health().details["recall_effects"]  # what /health shows an operator
    assert effects == {"mode": "deferred", "pending": 0, "written": 3, "failed": 1}
    state = _state(mem, user_id)
    assert len(state["events"]) == 3
    assert next(m for m in state["memories"] if m["content"] == FACTS[0])["access_count"] == 3


def test_the_async_facade_flushes_through_its_loop(
    server: Any, embedder: Any, mem: GraphMemory, user_id: str
) -> None:
    _ingest(mem, user_id)

    async def scenario() -> None:
        settings = Settings(recall_effects="deferred")
        async with await AsyncGraphMemory.connect(settings=settings, embedder=embedder) as amem:
            await asyncio.gather(*[amem.recall(q, user_id=user_id, k=3) for q in QUERIES[:2]])
            assert await amem.flush(timeout=20)
            assert len(_state(mem, user_id)["events"]) == 2
            await amem.recall(QUERIES[3], user_id=user_id, k=3)
        # closed: flushed first

    outcome: list[BaseException | None] = []
    # in a daemon thread: a flush that blocked the loop would deadlock with the writer, and hang the run
    runner = threading.Thread(target=lambda: outcome.append(_outcome(scenario)), daemon=True)
    runner.start()
    runner.join(60)
    assert outcome, "the async flush did not finish: did it block the event loop the writer needs?"
    if outcome[0] is not None:
        raise outcome[0]
    assert len(_state(mem, user_id)["events"]) == 3


def _outcome(scenario: Callable[[], Coroutine[Any, Any, None]]) -> BaseException | None:
    try:
        asyncio.run(scenario())
    except BaseException as exc:
        return exc
    return None


def test_the_servers_defer_and_the_rest_app_flushes_at_shutdown(mem: GraphMemory, user_id: str) -> None:
    assert serving(Settings()).recall_effects == "deferred"
    assert serving(Settings(recall_effects="inline")).recall_effects == "inline"  # a chosen mode is kept
    _ingest(mem, user_id)
    store = GatedStore(mem.runtime.store)
    client = _client(mem, store, recall_effects="deferred")
    try:
        with TestClient(create_app(client, KEY), headers={"X-API-Key": KEY}) as http:
            for query in QUERIES:
                assert http.post(f"/users/{user_id}/recall", json={"query": query, "k": 3}).status_code == 200
            assert client.runtime.deferred.pending == len(QUERIES)
            threading.Timer(0.3, store.gate.set).start()
        assert client.runtime.deferred.pending == 0  # the lifespan's shutdown flushed
    finally:
        store.gate.set()
        client.runtime.deferred.close()
    assert len(_state(mem, user_id)["events"]) == len(QUERIES)


def test_a_full_queue_writes_inline(mem: GraphMemory, user_id: str) -> None:
    """Back-pressure: beyond ``max_pending`` a recall writes its own effects (nothing is dropped)."""
    _ingest(mem, user_id, FACTS[:3])
    store = GatedStore(mem.runtime.store)
    client = _client(mem, store, recall_effects="deferred")
    client.runtime.deferred._max_pending = 1
    try:
        recall(client.runtime, _request(QUERIES[0], user_id), now=NOW)  # queued (held by the gate)
        # the gate opens once the second recall waits at it too (not after a fixed delay, which a slow
        # search could outlast: the first write then landed and the second was queued); a second recall
        # that queued never reaches the gate, and the 10 s bound opens it for the assertions to fail
        _open_when_waiting(store, 2, within=10)
        recall(client.runtime, _request(QUERIES[0], user_id), now=NOW)  # full: written here (after the gate)
        assert store.transactions >= 1  # its own write, committed before it returned
        assert client.flush(timeout=30)
        assert store.transactions == 2 and client.runtime.deferred.written == 1
    finally:
        store.gate.set()
        client.runtime.deferred.close()
    assert len(_state(mem, user_id)["events"]) == 2


def _open_when_waiting(store: GatedStore, waiting: int, *, within: float) -> None:
    """Open ``store``'s gate once ``waiting`` transactions wait at it, or after ``within`` seconds."""

    def run() -> None:
        deadline = time.monotonic() + within
        while store.waiting < waiting and time.monotonic() < deadline:
            time.sleep(0.01)
        store.gate.set()

    threading.Thread(target=run, daemon=True).start()


class WriterGatedStore(GatedStore):
    """Only the background writer's transactions wait for the gate; the caller's go straight through."""

    def unit_of_work(self, work: Callable[[Tx], T]) -> T:
        if threading.current_thread() is threading.main_thread():
            return self.inner.unit_of_work(work)
        return super().unit_of_work(work)


def test_feedback_without_a_query_judges_a_recall_still_queued(mem: GraphMemory, user_id: str) -> None:
    """Feedback without a query judges the latest recall that returned the memory; under deferred effects
    that recall's record may still be queued, so feedback waits for the queue (bounded) and learns it."""
    _ingest(mem, user_id)
    store = WriterGatedStore(mem.runtime.store)
    client = _client(mem, store, recall_effects="deferred")
    try:
        hits = client.recall(QUERIES[0], user_id=user_id, k=3)
        assert client.runtime.deferred.pending == 1  # the RecallEvent is held back by the gate
        threading.Timer(0.3, store.gate.set).start()
        client.memories.feedback(hits[0].memory.id, user_id=user_id, useful=True)
        asked = mem.query("MATCH (m:Memory {id: $id}) RETURN m.asked AS asked", {"id": hits[0].memory.id})
        assert asked == [{"asked": QUERIES[0]}]
    finally:
        store.gate.set()
        client.runtime.deferred.close()


def test_effects_written_in_place_of_a_full_queue_mark_the_user_changed(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recall whose effects the writer could not take writes them itself, and then marks the user changed
    (the preload cache reads it), as the writer does after its own writes."""
    _ingest(mem, user_id, FACTS[:3])
    client = _client(mem, recall_effects="deferred")
    monkeypatch.setattr(client.runtime.deferred, "submit", lambda *args, **kwargs: False)
    try:
        before = client.runtime.changes.version(user_id)
        assert recall(client.runtime, _request(QUERIES[0], user_id), now=NOW)
        assert client.runtime.changes.version(user_id) > before
    finally:
        client.runtime.deferred.close()
    assert len(_state(mem, user_id)["events"]) == 1


def test_a_context_that_fails_after_its_recall_still_writes_the_recalls_effects(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """context() writes its recall's effects after the assembly; when the assembly fails, the recall (which
    happened) is still recorded and reinforced, without the token counts."""
    from graphmem.retrieval import context as assembly

    _ingest(mem, user_id, FACTS[:3])

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the assembly failed")

    monkeypatch.setattr(assembly, "fit", broken)
    with pytest.raises(RuntimeError, match="the assembly failed"):
        mem.context(QUERIES[0], user_id=user_id)
    events = mem.query(
        "MATCH (r:RecallEvent) WHERE r.user_id = $u RETURN r.context_tokens_used AS used", {"u": user_id}
    )
    assert events == [{"used": None}]
