"""The vector indexes filter by tenant inside the index (Neo4j 2026.01+, the managed server): init() creates
them with ``user_id``, migrates indexes that lack it, and recall, formation and the associate job ask them for
a tenant's own nearest however small its share of the store. On the real server."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from conftest import disposable

from graphmem import GraphMemory
from graphmem.config import RetrievalPreset, Settings
from graphmem.embedding import embed_query_checked
from graphmem.formation import neighbours as neighbours_module
from graphmem.store import migrations
from graphmem.store.queries import FILTERED, dialect, query, schema_statements
from graphmem.store.runtime import VECTOR_INDEXES

pytestmark = pytest.mark.usefixtures("mem")


def _filtering(mem: GraphMemory) -> bool:
    return migrations.server_filters_vectors(mem.runtime)


def test_dialect_keeps_the_filter_blocks_only_for_a_filtering_server() -> None:
    text = "// head\nMATCH (m)\n// [vector filter] why\nSEARCH m\n// [end]\nRETURN m\n"
    assert dialect(text, filtered=False) == "// head\nMATCH (m)\nRETURN m\n"
    assert dialect(text, filtered=True) == "CYPHER 25\n// head\nMATCH (m)\nSEARCH m\nRETURN m\n"
    assert dialect("MATCH (m) RETURN m", filtered=True) == "MATCH (m) RETURN m"  # no block: as it is
    both = (
        "MATCH (m)\n// [no vector filter]\nCALL old\n// [end]\n"
        "// [vector filter]\nSEARCH m\n// [end]\nRETURN m\n"
    )
    assert dialect(both, filtered=False) == "MATCH (m)\nCALL old\nRETURN m\n"
    assert dialect(both, filtered=True) == "CYPHER 25\nMATCH (m)\nSEARCH m\nRETURN m\n"
    assert "SEARCH" not in query("recall_pool") and "SEARCH" in query(FILTERED + "recall_pool")
    assert migrations.filters_vectors("2026.01.4") and migrations.filters_vectors("2027.02.0")
    assert not migrations.filters_vectors("5.26.30") and not migrations.filters_vectors("2025.12.1")


def test_init_creates_vector_indexes_that_filter_where_the_server_can(mem: GraphMemory) -> None:
    rows = mem.runtime.store.read("vector_index_filter", names=list(VECTOR_INDEXES))
    assert {r["name"] for r in rows} == set(VECTOR_INDEXES)
    filtering = _filtering(mem)
    assert all(set(migrations.FILTERS).issubset(r["properties"]) == filtering for r in rows), rows
    assert all(("user_id" in r["properties"]) == filtering for r in rows), rows
    mem.runtime.vector_filter.reset()
    assert mem.runtime.vector_filter.ready(mem.runtime.store) == filtering
    assert mem.runtime.vector_filter.times(mem.runtime.store) == filtering


def _crowd(mem: GraphMemory, user_id: str, vector: list[float], n: int) -> None:
    """``n`` memories of another tenant whose embedding is exactly ``vector`` (bare rows, no formation)."""
    mem.runtime.store.run_statement(
        "UNWIND range(1, $n) AS i CREATE (m:Memory {id: randomUUID(), user_id: $u, user_key: $u, "
        "content: 'crowd row ' + i, status: 'active', created_at: datetime(), recorded_at: datetime()}) "
        "WITH m CALL db.create.setNodeVectorProperty(m, 'embedding', $e) "
        "WITH m CALL db.create.setNodeVectorProperty(m, 'context_embedding', $e)",
        {"n": n, "u": disposable(user_id + "-crowd"), "e": vector},
    )


def test_a_tiny_tenant_in_a_crowded_index_finds_its_own_by_meaning(mem: GraphMemory, user_id: str) -> None:
    """Another tenant holds 60 memories exactly at the query's vector; ours holds 3. Asked for 5 candidates
    (fetch 10), an index that is over-fetched and filtered after would see only the crowd; one that
    filters inside returns ours."""
    mine = mem.remember("My dog is called Rex", user_id=user_id)
    mem.remember("The quarterly tax forms are due", user_id=user_id)
    mem.remember("I repaired the kitchen sink", user_id=user_id)
    question = "what is the name of the pet"  # no word in common with "My dog is called Rex"
    _crowd(mem, user_id, embed_query_checked(mem.runtime.embedder, [question])[0], 60)
    calls: list[str] = []
    store = mem.runtime.store
    real_read = store.read

    def counting_read(name: str, /, **params: Any) -> list[dict[str, Any]]:
        calls.append(name)
        return real_read(name, **params)

    narrow = RetrievalPreset(pool_k=5, exact_scan_max=0, max_fetch=10, graph=False)
    store.read = counting_read  # type: ignore[method-assign]
    try:
        hits = mem.recall(question, user_id=user_id, k=3, preset=narrow, reinforce=False)
    finally:
        del store.read  # back to the class's method
    if _filtering(mem):
        assert FILTERED + "recall_pool" in calls, calls
        assert hits and hits[0].memory.id == mine.id
    else:  # 5.26: over-fetched, then the planner scans a share this small (the fetch would exceed 10)
        assert "recall_pool" in calls and hits and hits[0].memory.id == mine.id


def test_an_audit_asks_the_index_for_what_it_may_see(mem: GraphMemory, user_id: str) -> None:
    """60 of the tenant's own memories sit exactly at the query's vector, but happened (and were recorded)
    after the audit's times; the one it may see shares no word with the question. Asked for 5 candidates
    (fetch 10) with the scan ruled out, an index that bounded the times after its fetch would return only
    memories the audit must not see; one that bounds them inside returns the old memory, for valid and for
    transaction time alike."""
    old = mem.remember("My dog is called Rex", user_id=user_id, occurred_at=datetime(2020, 3, 1, tzinfo=UTC))
    known = datetime.now(UTC)
    question = "what is the name of the pet"
    mem.runtime.store.run_statement(
        "UNWIND range(1, 60) AS i CREATE (m:Memory {id: randomUUID(), user_id: $u, user_key: $u, "
        "content: 'later row ' + i, status: 'active', created_at: datetime(), recorded_at: datetime(), "
        "occurred_at: datetime('2025-06-01T00:00Z')}) "
        "WITH m CALL db.create.setNodeVectorProperty(m, 'embedding', $e) "
        "WITH m CALL db.create.setNodeVectorProperty(m, 'context_embedding', $e)",
        {"u": user_id, "e": embed_query_checked(mem.runtime.embedder, [question])[0]},
    )
    reads: list[tuple[str, dict[str, Any]]] = []
    store = mem.runtime.store
    real_read = store.read

    def recording_read(name: str, /, **params: Any) -> list[dict[str, Any]]:
        reads.append((name, params))
        return real_read(name, **params)

    narrow = RetrievalPreset(pool_k=5, exact_scan_max=0, max_fetch=10, graph=False)
    store.read = recording_read  # type: ignore[method-assign]
    try:
        in_2021 = mem.recall(
            question,
            user_id=user_id,
            k=3,
            preset=narrow,
            reinforce=False,
            as_of=datetime(2021, 1, 1, tzinfo=UTC),
        )
        back_then = mem.recall(question, user_id=user_id, k=3, preset=narrow, reinforce=False, known_at=known)
    finally:
        del store.read  # back to the class's method
    pools = [params for name, params in reads if name.endswith("recall_pool")]
    if _filtering(mem):
        assert len(pools) == 2 and all(p["method"] == "filtered" and p["time_filter"] for p in pools), pools
    assert [h.memory.id for h in in_2021] == [old.id]
    assert [h.memory.id for h in back_then] == [old.id]


def test_formation_neighbours_from_a_filtering_index_are_the_exact_ones(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [
        "I adopted a cat named Miso",
        "Miso sleeps on the radiator",
        "We bought a new sofa",
        "Rain again",
    ]
    for text in texts:
        mem.remember(text, user_id=user_id)
    probe = mem.runtime.embedder.embed(["my cat Miso"])[0]
    _crowd(mem, user_id, probe, 40)
    exact = neighbours_module.exact(mem.runtime, user_id, [probe], 3)[0]
    monkeypatch.setattr(neighbours_module, "SMALL_TENANT", 0)  # take the index path for a tiny tenant
    found = neighbours_module.neighbours(mem.runtime, user_id, [probe], 3)[0]
    assert [n.id for n in found] == [n.id for n in exact]
    assert {n.content for n in found[:2]} == {texts[0], texts[1]}


def test_migration_recreates_a_vector_index_that_cannot_filter(mem: GraphMemory) -> None:
    rt = mem.runtime
    if not _filtering(mem):
        assert migrations.migrate(rt, filtered=False) == []
        return
    plain = dict(schema_statements(filtered=False))["041_memory_context_embedding_vector"]
    rt.store.run_statement(query("schema_vector_index_drop"), {"name": "memory_context_embedding"})
    try:
        rt.store.run_statement(plain, {"dimension": rt.embedder.dimension})
        rt.store.run_statement(
            query("schema_await_index"), {"name": "memory_context_embedding", "seconds": 600}
        )
        rt.vector_filter.reset()
        assert not rt.vector_filter.ready(rt.store)  # recall and formation over-fetch meanwhile
        assert migrations.migrate(rt, filtered=True) == ["memory_context_embedding"]
        assert migrations.migrate(rt, filtered=True) == []  # idempotent
        # an index from graphmem before the time filters (tenant only): recreated with them
        current = dict(schema_statements(filtered=True))["040_memory_embedding_vector"]
        tenant_only = current.replace("m.user_id, m.occurred_at, m.recorded_at", "m.user_id")
        assert tenant_only != current
        rt.store.run_statement(query("schema_vector_index_drop"), {"name": "memory_embedding"})
        rt.store.run_statement(tenant_only, {"dimension": rt.embedder.dimension})
        rt.store.run_statement(query("schema_await_index"), {"name": "memory_embedding", "seconds": 600})
        rt.vector_filter.reset()
        assert rt.vector_filter.ready(rt.store) and not rt.vector_filter.times(rt.store)
        assert migrations.migrate(rt, filtered=True) == ["memory_embedding"]
        assert migrations.migrate(rt, filtered=True) == []
    finally:
        mem.init()  # whatever happened above, the shared server's schema is current again
    assert rt.vector_filter.ready(rt.store) and rt.vector_filter.times(rt.store)


def test_recall_formation_and_associate_go_around_a_vector_index_that_is_not_online(
    mem: GraphMemory, user_id: str
) -> None:
    """While a migration rebuilds a vector index, Neo4j blocks a query on it ~30 s, then fails it (2026.01.4,
    docs/setup.md); a dropped index fails it at once. Either way recall and formation scan the tenant and
    the associate job waits, and a client that believed the index online (another process dropped it)
    recovers on its first failure (the associate job's full pass reads the vectors themselves and needs no
    index). Dropping the index puts the planner in the populating case without the 30 s wait."""
    rt = mem.runtime
    mine = mem.remember("My dog is called Rex", user_id=user_id)
    mem.remember("The quarterly tax forms are due", user_id=user_id)
    assert rt.vector_filter.online(rt.store)  # kept: this client is not told of the drop below
    narrow = RetrievalPreset(pool_k=5, exact_scan_max=0, max_fetch=10, graph=False)  # the index, by size
    rt.store.run_statement(query("schema_vector_index_drop"), {"name": "memory_embedding"})
    try:
        hits = mem.recall("what is the name of the pet", user_id=user_id, k=2, preset=narrow, reinforce=False)
        assert hits and hits[0].memory.id == mine.id
        assert not rt.vector_filter.online(rt.store)  # read again after the failure
        later = mem.remember("Rex, my dog, is a border collie", user_id=user_id)  # formation scans the tenant
        linked = mem.query(
            "MATCH (:Memory {id: $id})-[:RELATED_TO]-(b:Memory) RETURN collect(b.id) AS ids", {"id": later.id}
        )
        assert mine.id in linked[0]["ids"]
        settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"), gds_enabled=False)
        with GraphMemory.connect(settings=settings, embedder=rt.embedder) as other:
            first = other.jobs.run("associate", user_id=user_id)  # the full pass reads the vectors: no index
            mem.remember("Rex chases the ball in the park", user_id=user_id)
            run = other.jobs.run(
                "associate", user_id=user_id
            )  # one new memory of four: the index, not online
        assert first.counts["method"] == "knn" and first.counts["edges"] > 0, first.counts
        assert run.counts["method"] == "waiting" and run.counts["edges"] == 0, run.counts
        pending = rt.store.read("associate_pending", user_id=user_id)[0]["pending"]
        assert pending == 1  # still there for the next run
    finally:
        mem.init()  # the index again, awaited below, whatever happened above
        rt.store.run_statement(query("schema_await_index"), {"name": "memory_embedding", "seconds": 600})
        rt.vector_filter.reset()
    assert rt.vector_filter.online(rt.store)
    again = mem.recall("what is the name of the pet", user_id=user_id, k=2, preset=narrow, reinforce=False)
    assert again and again[0].memory.id == mine.id


def test_a_no_is_asked_again_later_and_a_yes_is_kept() -> None:
    from graphmem.store.runtime import VectorFilter

    class Store:
        def __init__(self) -> None:
            self.reads = 0
            self.state = "POPULATING"

        def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
            assert name == "vector_index_filter"
            self.reads += 1
            return [
                {"name": n, "properties": ["embedding", "user_id"], "state": self.state}
                for n in params["names"]
            ]

    store = Store()
    flag = VectorFilter(retry=0.2)
    assert not flag.ready(store) and not flag.ready(store)  # populating: no, and not asked twice at once
    assert not flag.online(store) and store.reads == 1
    store.state = "ONLINE"
    import time

    time.sleep(0.25)
    assert flag.ready(store) and flag.ready(store)  # asked again after the retry delay; a yes is kept
    assert flag.online(store) and store.reads == 2
    assert not flag.times(store)  # the tenant alone: an audit still scans
    assert store.reads == 2


def test_the_time_filters_count_only_when_both_indexes_list_both_times() -> None:
    from graphmem.store.runtime import VectorFilter

    def listing(own: list[str], context: list[str]) -> Any:
        class Store:
            def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
                return [
                    {"name": "memory_embedding", "properties": own, "state": "ONLINE"},
                    {"name": "memory_context_embedding", "properties": context, "state": "ONLINE"},
                ]

        return Store()

    both = ["user_id", "occurred_at", "recorded_at"]
    assert VectorFilter().times(listing(["embedding", *both], ["context_embedding", *both]))
    assert not VectorFilter().times(listing(["embedding", *both], ["context_embedding", "user_id"]))
    assert not VectorFilter().times(listing(["embedding", "occurred_at", "recorded_at"], both))
    assert not VectorFilter().ready(listing(["embedding", "occurred_at", "recorded_at"], both))
