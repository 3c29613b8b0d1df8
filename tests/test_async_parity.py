"""One behaviour suite, run against both GraphMemory and AsyncGraphMemory on the real server.

The ``memory`` fixture is parametrized ["sync", "async"]: the async one is an AsyncGraphMemory behind a thin
shim that runs each coroutine to completion on one event loop, so the same test bodies run twice.
"""

from __future__ import annotations

import asyncio
import inspect
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem import (
    AsyncGraphMemory,
    CoreBlockLimitExceeded,
    CoreBlockNotFound,
    CoreBlockReadOnly,
    FactNotFound,
    GraphMemory,
    MemoryNotFound,
    OnnxEmbedder,
    StoreError,
    ValidationError,
    VersionConflict,
    aio,
)


class OnLoop:
    """Presents an async graphmem object synchronously: each coroutine it returns is run on ``loop``."""

    def __init__(self, target: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._target = target
        self._loop = loop

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if isinstance(value, aio._Async):  # a namespace: mem.jobs, mem.facts, ...
            return OnLoop(value, self._loop)
        if not inspect.iscoroutinefunction(value):
            return value

        def run(*args: Any, **kwargs: Any) -> Any:
            return self._loop.run_until_complete(value(*args, **kwargs))

        return run


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.run_until_complete(loop.shutdown_default_executor())
    loop.close()


@pytest.fixture(scope="module")
def amem(server: Any, embedder: OnnxEmbedder, loop: asyncio.AbstractEventLoop) -> Iterator[AsyncGraphMemory]:
    memory = loop.run_until_complete(AsyncGraphMemory.connect(embedder=embedder))
    loop.run_until_complete(memory.init())
    yield memory
    loop.run_until_complete(memory.close())


@pytest.fixture(params=["sync", "async"])
def memory(request: pytest.FixtureRequest, loop: asyncio.AbstractEventLoop) -> Any:
    if request.param == "sync":
        return request.getfixturevalue("mem")
    return OnLoop(request.getfixturevalue("amem"), loop)


def d(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, tzinfo=UTC)


def memory_count(memory: Any, user_id: str) -> int:
    rows = memory.query("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": user_id})
    return int(rows[0]["n"])


def test_the_async_side_really_is_async(memory: Any, request: pytest.FixtureRequest) -> None:
    if isinstance(memory, GraphMemory):
        assert request.node.callspec.params["memory"] == "sync"
    else:
        assert isinstance(memory._target, AsyncGraphMemory)
        assert type(memory._target.runtime.store).__name__ == "AsyncStore"


def test_remember_then_recall_and_as_of(memory: Any, user_id: str) -> None:
    rex = memory.remember("I adopted a dog named Rex", user_id=user_id, session_id="s1", metadata={"m": 1})
    checkpoint = datetime.now(UTC)
    time.sleep(0.01)
    memory.remember("I work as an accountant in Leeds", user_id=user_id, session_id="s1")
    hits = memory.recall("what is my pet called?", user_id=user_id, k=10, reinforce=False)
    assert len(hits) == 2 and hits[0].memory.id == rex.id and hits[0].memory.metadata == {"m": 1}
    assert hits[0].score > hits[1].score
    then = memory.recall("what is my pet called?", user_id=user_id, as_of=checkpoint)
    assert [h.memory.id for h in then] == [rex.id]


def test_add_messages_and_context(memory: Any, user_id: str) -> None:
    turns = [
        {"role": "user", "content": "My name is Alice and I live in Paris."},
        {"role": "assistant", "content": "Nice to meet you, Alice."},
        "I adopted a dog named Rex because I felt lonely.",
    ]
    stored = memory.add_messages(turns, user_id=user_id, session_id="s1")
    assert len(stored) == 3 and stored[0].content == "My name is Alice and I live in Paris."
    memory.facts.set(user_id, "favourite_colour", "green", fact_type="preference")
    memory.core.set(user_id, "persona", "I am a concise assistant.")
    ctx = memory.context("tell me about my dog", user_id=user_id, token_budget=2000, reinforce=False)
    assert "Rex" in ctx.text and "favourite_colour" in ctx.text
    assert ctx.text.index("concise assistant") < ctx.text.index("favourite_colour")
    assert ctx.tokens <= 2000 and ctx.dropped == []


def test_facts_as_of_known_at_and_history(memory: Any, user_id: str) -> None:
    before = datetime.now(UTC)
    time.sleep(0.01)
    memory.facts.set(user_id, "city", "Lyon", fact_type="profile", valid_from=d(1, 10))
    between = datetime.now(UTC)
    time.sleep(0.01)
    memory.facts.set(user_id, "city", "Paris", fact_type="profile", valid_from=d(3, 1))
    assert memory.facts.get(user_id, "city").value == "Paris"
    assert memory.facts.get(user_id, "city", as_of=d(2, 1)).value == "Lyon"
    assert memory.facts.get(user_id, "city", as_of=d(3, 3)).value == "Paris"
    assert memory.facts.get(user_id, "city", as_of=d(3, 3), known_at=between).value == "Lyon"
    assert memory.facts.get(user_id, "city", known_at=before) is None
    history = memory.facts.history(user_id, "city")
    assert [f.value for f in history] == ["Lyon", "Paris"]
    assert history[0].valid_to == d(3, 1) and history[1].valid_to is None
    assert memory.facts.get(user_id, "nothing") is None
    retracted = memory.facts.retract(user_id, "city")
    assert retracted.value == "Paris" and memory.facts.get(user_id, "city") is None
    with pytest.raises(FactNotFound):
        memory.facts.retract(user_id, "city")


def test_update_memory_checks_the_version(memory: Any, user_id: str) -> None:
    m = memory.remember("I live in Leeds", user_id=user_id)
    updated = memory.memories.update(m.id, user_id=user_id, expected_version=1, content="I live in York")
    assert updated.version == 2 and updated.content == "I live in York"
    with pytest.raises(VersionConflict):
        memory.memories.update(m.id, user_id=user_id, expected_version=1, content="I live in Hull")
    assert [v.content for v in memory.memories.history(m.id, user_id=user_id)] == [
        "I live in Leeds",
        "I live in York",
    ]


def test_an_idempotency_key_replays_the_first_result(memory: Any, user_id: str) -> None:
    key = str(uuid.uuid4())
    first = memory.remember("I adopted a dog named Rex", user_id=user_id, idempotency_key=key)
    again = memory.remember("I adopted a dog named Rex", user_id=user_id, idempotency_key=key)
    assert again == first and memory_count(memory, user_id) == 1
    fact = memory.facts.set(user_id, "city", "Paris", idempotency_key="fact-1")
    assert memory.facts.set(user_id, "city", "Paris", idempotency_key="fact-1") == fact
    assert len(memory.facts.history(user_id, "city")) == 1
    assert [e.action for e in memory.temporal.audit_log(user_id=user_id)] == ["remember", "set_fact"]


def test_core_blocks_and_their_errors(memory: Any, user_id: str) -> None:
    memory.core.set(user_id, "human", "Name: Alice", limit=40)
    assert memory.core.append(user_id, "human", "Likes tea").value == "Name: Alice\nLikes tea"
    assert memory.core.replace(user_id, "human", "tea", "green tea").version == 3
    assert memory.core.history(user_id, "human")[0].value == "Name: Alice"
    assert [b.label for b in memory.core.list(user_id)] == ["human"]
    with pytest.raises(CoreBlockLimitExceeded):
        memory.core.append(user_id, "human", "x" * 40)
    with pytest.raises(CoreBlockNotFound):
        memory.core.append(user_id, "missing", "x")
    memory.core.set(user_id, "rules", "Be brief.", read_only=True)
    with pytest.raises(CoreBlockReadOnly):
        memory.core.replace(user_id, "rules", "brief", "long")
    with pytest.raises(ValidationError):
        memory.core.replace(user_id, "human", "absent", "x")


def test_forget_hides_a_memory(memory: Any, user_id: str) -> None:
    keep = memory.remember("I play the violin", user_id=user_id)
    gone = memory.remember("I play the cello", user_id=user_id)
    memory.forget(gone.id, user_id=user_id)
    ids = [h.memory.id for h in memory.recall("which instrument do I play?", user_id=user_id)]
    assert ids == [keep.id]
    with pytest.raises(MemoryNotFound):
        memory.forget(str(uuid.uuid4()), user_id=user_id)


def test_export_and_delete_user(memory: Any, user_id: str) -> None:
    memory.add_messages(["I live in Paris.", "I adopted a dog named Rex."], user_id=user_id, session_id="s")
    memory.facts.set(user_id, "city", "Paris")
    exported = memory.users.export(user_id)
    assert len(exported["memories"]) == 2 and exported["facts"][0]["value"] == "Paris"
    report = memory.users.delete(user_id)
    assert report.nodes["Memory"] == 2 and report.relationships > 0
    assert memory.users.export(user_id)["memories"] == [] and memory.facts.get(user_id, "city") is None
    assert memory.users.delete(user_id).deleted == 0


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda m, u: m.recall("   ", user_id=u), "query"),
        (lambda m, u: m.recall("pets", user_id=u, k=0), "k"),
        (lambda m, u: m.remember("x", user_id=""), "user_id"),
        (lambda m, u: m.facts.get(u, "city", as_of="yesterday"), "as_of"),
        (lambda m, u: m.context("x", user_id=u, token_budget=0), "token_budget"),
        (lambda m, u: m.jobs.run("nonsense"), "job"),
    ],
)
def test_validation_errors_are_the_same(memory: Any, user_id: str, call: Any, field: str) -> None:
    with pytest.raises(ValidationError) as info:
        call(memory, user_id)
    assert info.value.field == field
    assert memory_count(memory, user_id) == 0


def test_a_job_runs_and_is_recorded(memory: Any, user_id: str) -> None:
    memory.remember("I adopted a dog named Rex", user_id=user_id)
    run = memory.jobs.run("decay", user_id=user_id)
    assert run.status == "success" and run.user_id == user_id and run.trigger == "manual"
    associate = memory.jobs.run("associate", user_id=user_id)  # GDS (or the vector fallback) via Cypher
    assert associate.status == "success", associate.error
    assert memory.automation.runs(1, job="decay", user_id=user_id)[0].id == run.id
    assert {s.name for s in memory.jobs.list()} >= {"decay", "forget", "review"}


def test_the_query_escape_hatch(memory: Any, user_id: str) -> None:
    memory.remember("I adopted a dog named Rex", user_id=user_id)
    assert memory_count(memory, user_id) == 1
    with pytest.raises(StoreError):  # read-only: the server refuses writes, translated the same way
        memory.query("CREATE (m:Memory {user_id: $u}) RETURN m", {"u": user_id})
    assert memory_count(memory, user_id) == 1
    with pytest.raises(ValidationError):
        memory.query("")


def test_topics_tuning_and_reconstruction(memory: Any, user_id: str) -> None:
    for t in [
        "My beagle Rex chases squirrels",
        "Rex the beagle sees the vet",
        "The vet weighed my beagle Rex",
    ]:
        memory.remember(t, user_id=user_id)
    memory.add_messages(["Did you like the vet?", "Yes, it was fine!"], user_id=user_id, session_id="s")
    assert memory.topics.rebuild(user_id)["topics"] == len(memory.topics.list(user_id))
    assert memory.automation.evolution.set(user_id, {"graph_weight": 0.35}).version == 1
    assert memory.automation.evolution.tuning(user_id).params == {"graph_weight": 0.35}
    hits = memory.recall("was the vet fine?", user_id=user_id, k=5, reconstruct=True, reinforce=False)
    assert any(h.reconstruction is not None for h in hits)
