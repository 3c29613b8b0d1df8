"""The runnable slice against the real server: schema, remember, recall, isolation, validation."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TypeVar

import numpy as np
import pytest
from conftest import disposable

from graphmem import (
    EmbedderError,
    GraphMemory,
    OnnxEmbedder,
    SchemaError,
    Settings,
    StoreError,
    ValidationError,
)
from graphmem.config import MAX_CONTENT_CHARS, MAX_K
from graphmem.store.driver import Store, Tx

T = TypeVar("T")


def test_init_is_idempotent(mem: GraphMemory) -> None:
    mem.init()
    mem.init()
    names = {r["name"] for r in mem.query("SHOW INDEXES YIELD name RETURN name")}
    assert {"memory_embedding", "memory_content", "memory_user", "memory_id_unique"} <= names


def test_remember_then_recall_round_trip(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember(
        "I adopted a dog named Rex", user_id=user_id, session_id="s1", metadata={"mood": "happy"}
    )
    mem.remember("My favourite colour is green", user_id=user_id, session_id="s1")
    mem.remember("I work as an accountant in Leeds", user_id=user_id, session_id="s1")
    assert m.user_id == user_id and m.content == "I adopted a dog named Rex"
    hits = mem.recall("what is my pet called?", user_id=user_id, k=10)
    assert len(hits) == 3
    assert hits[0].memory.id == m.id
    assert hits[0].memory.metadata == {"mood": "happy"}
    assert hits[0].score > hits[1].score
    assert hits[0].explanation.search_level == "vector"


def test_session_memories_are_chained_by_follows(mem: GraphMemory, user_id: str) -> None:
    ids = [mem.remember(f"message number {i}", user_id=user_id, session_id="chat").id for i in range(4)]
    later = mem.remember("a new day, a new session", user_id=user_id, session_id="chat-2").id
    rows = mem.query(
        "MATCH (a:Memory {user_id: $u})-[f:FOLLOWS]->(b:Memory) RETURN a.id AS a, b.id AS b, f.kind AS kind",
        {"u": user_id},
    )
    edges = {(r["a"], r["b"]): r["kind"] for r in rows}
    assert edges == {
        (ids[0], ids[1]): "session",
        (ids[1], ids[2]): "session",
        (ids[2], ids[3]): "session",
        (ids[3], later): "cross_session",
    }


def test_recall_never_returns_another_users_memories(mem: GraphMemory, user_id: str) -> None:
    other = f"{user_id}-other"
    mem.remember("My dog Rex loves the beach", user_id=other)
    mem.remember("I like tea in the morning", user_id=user_id)
    hits = mem.recall("dog Rex beach", user_id=user_id, k=10)
    assert [h.memory.user_id for h in hits] == [user_id]
    assert mem.recall("anything", user_id=f"{user_id}-nobody") == []


def _true_top_k(embedder: OnnxEmbedder, texts: Sequence[str], query: str, k: int) -> list[str]:
    vectors = np.array(embedder.embed(list(texts)))
    q = np.array(embedder.embed([query])[0])
    order = np.argsort(-(vectors @ q))[:k]
    return [texts[i] for i in order]


@pytest.mark.parametrize("exact_scan_max", [50_000, 0])
def test_small_tenant_among_many_gets_its_true_top_k(
    mem: GraphMemory, embedder: OnnxEmbedder, exact_scan_max: int
) -> None:
    """A tenant with few memories among many others' still gets its exact top-k, by either plan."""
    run = uuid.uuid4().hex[:8]
    crowd_texts = [
        f"Crowd note {i}: my dog likes walks and pets are lovely, topic {i % 37}" for i in range(1500)
    ]
    for j in range(15):  # 15 other tenants, 100 memories each, all about pets
        rows = [
            {"id": f"{run}-{j}-{i}", "text": t} for i, t in enumerate(crowd_texts[j * 100 : (j + 1) * 100])
        ]
        vecs = embedder.embed([r["text"] for r in rows])
        mem.runtime.store.run_statement(
            "UNWIND $rows AS r CREATE (m:Memory {id: r.id, user_id: $u, content: r.text, status: 'active',"
            " recorded_at: datetime()}) WITH m, r"
            " CALL db.create.setNodeVectorProperty(m, 'embedding', r.vec)",
            {"rows": [{**r, "vec": v} for r, v in zip(rows, vecs)], "u": disposable(f"crowd-{run}-{j}")},
        )
    user = disposable(f"small-{run}")
    own = [
        "I have a cat called Misty",
        "My dog is named Bruno",
        "I went hiking in Wales",
        "The car needs new tyres",
        "Pets make me happy",
        "I bought a new laptop",
    ]
    for text in own:
        mem.remember(text, user_id=user)
    from graphmem.config import RetrievalPreset

    preset = RetrievalPreset(  # ranking by cosine alone: this test is about the vector plan
        name="test-plan",
        exact_scan_max=exact_scan_max,
        max_fetch=10**9,
        vector_weight=1.0,
        graph=False,
        state_weight=0.0,
    )
    with GraphMemory.connect(settings=Settings(retrieval_preset=preset), embedder=embedder) as scoped:
        hits = scoped.recall("what pets do I have?", user_id=user, k=3)
    assert [h.memory.content for h in hits] == _true_top_k(embedder, own, "what pets do I have?", 3)


def test_index_plan_matches_the_context_key_as_the_scan_does(mem: GraphMemory, user_id: str) -> None:
    """The ANN plan asks both vector indexes: a memory whose query match is its context key (the turn before
    it with itself) is found by the index as by the exact scan. Before, the index read only the memory's own
    key and missed it."""
    from graphmem.config import RetrievalPreset
    from graphmem.retrieval.recall import tenant_keys
    from graphmem.retrieval.search import SearchRequest, search

    rng = np.random.default_rng(7)

    def unit() -> list[float]:
        v = rng.normal(size=384)
        return [float(x) for x in v / np.linalg.norm(v)]

    query = unit()
    rows = [{"id": f"{user_id}-{i}", "own": unit(), "ctx": unit()} for i in range(40)]
    rows[17]["ctx"] = query  # its own words miss; its context matches exactly
    mem.runtime.store.run_statement(
        "UNWIND $rows AS r CREATE (m:Memory {id: r.id, user_id: $u, content: 'note ' + r.id,"
        " status: 'active', memory_type: 'episodic', recorded_at: datetime(), occurred_at: datetime()})"
        " WITH m, r"
        " CALL db.create.setNodeVectorProperty(m, 'embedding', r.own)"
        " CALL db.create.setNodeVectorProperty(m, 'context_embedding', r.ctx)",
        {"rows": rows, "u": user_id},
    )
    found = {}
    for scan_max in (50_000, 0):  # the exact scan, then the ANN plan for any size
        preset = RetrievalPreset(
            name="test-plan", pool_k=5, exact_scan_max=scan_max, max_fetch=10**9, graph=False
        )
        request = SearchRequest(
            query="unmatched words",
            user_id=user_id,
            user_key=tenant_keys([user_id]),
            k=3,
            preset=preset,
            embedding=query,
        )
        found[scan_max] = [h.id for h in search(mem.runtime, request).hits]
    assert found[50_000][0] == found[0][0] == f"{user_id}-17"


def test_query_escape_hatch_is_read_only(mem: GraphMemory, user_id: str) -> None:
    mem.remember("read only check", user_id=user_id)
    rows = mem.query("MATCH (m:Memory {user_id: $u}) RETURN m.content AS c", {"u": user_id})
    assert rows == [{"c": "read only check"}]
    with pytest.raises(StoreError):
        mem.query("CREATE (:Memory {user_id: $u, content: 'sneaky'})", {"u": user_id})
    assert len(mem.query("MATCH (m:Memory {user_id: $u}) RETURN m", {"u": user_id})) == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"content": ""}, "content"),
        ({"content": "   \n"}, "content"),
        ({"content": "x" * (MAX_CONTENT_CHARS + 1)}, "content"),
        ({"content": 42}, "content"),
        ({"user_id": None}, "user_id"),
        ({"user_id": ""}, "user_id"),
        ({"user_id": 7}, "user_id"),
        ({"memory_type": "dream"}, "memory_type"),
        ({"importance": 1.5}, "importance"),
        ({"occurred_at": "yesterday"}, "occurred_at"),
        ({"metadata": ["not", "a", "dict"]}, "metadata"),
    ],
)
def test_remember_rejects_bad_input_and_writes_nothing(
    mem: GraphMemory, user_id: str, kwargs: dict[str, object], field: str
) -> None:
    args: dict[str, object] = {"content": "valid text", "user_id": user_id, **kwargs}
    content = args.pop("content")
    with pytest.raises(ValidationError) as info:
        mem.remember(content, **args)  # type: ignore[arg-type]
    assert info.value.field == field
    assert mem.query("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": user_id})[0]["n"] == 0


@pytest.mark.parametrize("k", [0, -1, MAX_K + 1, 2.5, True])
def test_recall_rejects_k_out_of_range(mem: GraphMemory, user_id: str, k: object) -> None:
    with pytest.raises(ValidationError) as info:
        mem.recall("hello", user_id=user_id, k=k)  # type: ignore[arg-type]
    assert info.value.field == "k"


def test_recall_rejects_empty_query(mem: GraphMemory, user_id: str) -> None:
    with pytest.raises(ValidationError):
        mem.recall("  ", user_id=user_id)


class _BrokenEmbedder:
    """Returns vectors of the wrong size: a clear EmbedderError before anything is written."""

    dimension = 384

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[float("nan")] * 3 for _ in texts]


class _FailingStore(Store):
    """The real store, with a failure injected after the second query of a write transaction."""

    def unit_of_work(self, work: Callable[[Tx], T]) -> T:
        def failing(tx: Tx) -> T:
            real_run, calls = tx.run, []

            def run(name: str, /, **params: object) -> list[dict[str, object]]:
                rows = real_run(name, **params)
                calls.append(name)
                if len(calls) == 2:
                    raise StoreError(f"injected failure after {calls}")
                return rows

            tx.run = run  # type: ignore[method-assign]
            return work(tx)

        return super().unit_of_work(failing)


def test_remember_is_transactional(mem: GraphMemory, user_id: str) -> None:
    first = mem.remember("first, stored fine", user_id=user_id, session_id="s")
    failing = GraphMemory(
        _FailingStore(mem.runtime.store.driver, mem.runtime.store.database),
        mem.embedder,
        mem.runtime.settings,
    )
    with pytest.raises(StoreError, match="injected failure"):
        failing.remember("second, must vanish", user_id=user_id, session_id="s2")
    rows = mem.query(
        "MATCH (n) WHERE n.user_id = $u RETURN labels(n)[0] AS label, count(*) AS n ORDER BY label",
        {"u": user_id},
    )
    counts = {r["label"]: r["n"] for r in rows}
    assert counts["Memory"] == 1 and counts["Session"] == 1
    tail = mem.query(
        "MATCH (s:Session) WHERE s.user_id = $u RETURN s.session_id AS s, s.last_memory_id AS last",
        {"u": user_id},
    )
    assert tail == [{"s": "s", "last": first.id}]  # the failed call moved no session's tail


def test_a_broken_embedder_is_a_clear_error_and_writes_nothing(mem: GraphMemory, user_id: str) -> None:
    broken = GraphMemory(mem.runtime.store, _BrokenEmbedder(), mem.runtime.settings)
    with pytest.raises(EmbedderError, match="dimension 3, expected 384"):
        broken.remember("never stored", user_id=user_id)
    assert mem.query("MATCH (n) WHERE n.user_id = $u RETURN count(n) AS n", {"u": user_id})[0]["n"] == 0


class _SmallEmbedder:
    dimension = 8

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[0.1] * 8 for _ in texts]


def test_init_refuses_an_embedder_of_another_dimension(mem: GraphMemory) -> None:
    small = GraphMemory(mem.runtime.store, _SmallEmbedder(), mem.runtime.settings)
    with pytest.raises(SchemaError, match=r"dimension 384.*8"):
        small.init()


def test_naive_datetimes_are_read_as_utc(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("naive time", user_id=user_id, occurred_at=datetime(2024, 5, 1, 12, 0))
    assert m.occurred_at == datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
