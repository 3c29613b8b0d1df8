"""Formation's tenant-scoped nearest neighbours: the adaptive index path agrees with the exact scan."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from store_calls import record_calls

from graphmem import GraphMemory
from graphmem.formation import neighbours as nearest

T0 = datetime(2024, 1, 1, tzinfo=UTC)
TOPICS = [
    "I adopted a puppy named Rex", "Rex chewed my shoes", "We hiked up Snowdon", "The hike was foggy",
    "I bake sourdough bread", "My sourdough starter died", "Planning a trip to Japan",
    "Booked flights to Tokyo", "Started learning the violin", "Violin lessons are hard",
    "My sister lives in Lisbon", "Visited Lisbon in May",
]  # fmt: skip


def _seed(mem: GraphMemory, user_id: str) -> None:
    mem.add_messages(
        [
            {"role": "user", "content": t, "timestamp": T0 + timedelta(minutes=i)}
            for i, t in enumerate(TOPICS)
        ],
        user_id=user_id,
        session_id="s",
    )


def _as_close(mem: GraphMemory, user_id: str, vectors: list[list[float]], found: Any, want: Any) -> None:
    """The index found neighbours as close as the exact scan's, in the same order: the same ids but where two
    of the tenant's memories are closer together than the index's quantisation (it ranks by quantised vectors,
    off by up to 0.003 in cosine), which makes their order a tie."""
    exact = nearest.exact(mem.runtime, user_id, vectors, len(TOPICS))
    for got, best, everything in zip(found, want, exact, strict=True):
        cosine = {h.id: h.cosine for h in everything}
        assert [cosine[h.id] for h in got] == pytest.approx([h.cosine for h in best], abs=0.003)


def _count_reads(mem: GraphMemory, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the store reads from now on (each still runs)."""
    return record_calls(mem.runtime.store, "read", monkeypatch)


def test_index_path_matches_the_exact_scan(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(mem, user_id)
    vectors = mem.runtime.embedder.embed(["my dog Rex", "bread baking", "a flight to Japan"])
    exact = nearest.exact(mem.runtime, user_id, vectors, 3)
    monkeypatch.setattr(nearest, "SMALL_TENANT", 0)  # 12 memories: take the index path on 5.26 too
    calls = _count_reads(mem, monkeypatch)
    indexed = nearest.neighbours(mem.runtime, user_id, vectors, 3)
    _as_close(mem, user_id, vectors, indexed, exact)
    assert all(len(hs) == 3 for hs in indexed)
    assert {h.content for h in indexed[0][:2]} == {"I adopted a puppy named Rex", "Rex chewed my shoes"}
    # only this tenant's memories, and the index answered (a short result falls back to the exact scan):
    # filtered inside the index where the server can (2026.01+), over-fetched otherwise
    filtered = mem.runtime.vector_filter.ready(mem.runtime.store)
    assert ("filtered:" if filtered else "") + "formation_neighbours_index" in calls
    assert all(h.id for hs in indexed for h in hs)


def test_an_empty_tenant_has_no_neighbours(mem: GraphMemory, user_id: str) -> None:
    assert nearest.neighbours(mem.runtime, user_id, mem.runtime.embedder.embed(["anything"]), 5) == [[]]


def test_a_large_batch_against_a_small_tenant_is_compared_in_process_with_the_same_result(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(mem, user_id)
    queries = ["my dog Rex", "bread baking", "a flight to Japan", "music lessons", "family abroad"] * 2
    vectors = mem.runtime.embedder.embed(queries)
    assert len(vectors) >= nearest.BATCH_SCAN
    calls = _count_reads(mem, monkeypatch)
    batch = nearest.neighbours(mem.runtime, user_id, vectors, 4)
    filtered = mem.runtime.vector_filter.ready(mem.runtime.store)  # 2026.01+: read as packed vectors
    assert ("filtered:" if filtered else "") + "formation_tenant_vectors" in calls
    assert "formation_neighbours" not in calls
    scanned = nearest.exact(mem.runtime, user_id, vectors, 4)
    assert [[h.id for h in hs] for hs in batch] == [[h.id for h in hs] for hs in scanned]
    for got, want in zip(batch, scanned, strict=True):
        assert [h.cosine for h in got] == pytest.approx([h.cosine for h in want], abs=1e-5)
        assert [(h.content, h.session_id, h.occurred_at) for h in got] == [
            (h.content, h.session_id, h.occurred_at) for h in want
        ]


def test_a_small_batch_asks_the_filtering_index_without_counting_the_tenant(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    filtered = mem.runtime.vector_filter.ready(mem.runtime.store)
    _seed(mem, user_id)
    vectors = mem.runtime.embedder.embed(["my dog Rex", "a flight to Japan"])
    calls = _count_reads(mem, monkeypatch)
    found = nearest.neighbours(mem.runtime, user_id, vectors, 3)
    if filtered:  # the managed server (2026.01): one round trip, no count, no scan
        assert calls == ["filtered:formation_neighbours_index"]
    else:  # Neo4j 5.26: a capped count, then the exact scan of a small tenant
        assert calls == ["formation_tenant_small", "formation_neighbours"]
    _as_close(mem, user_id, vectors, found, nearest.exact(mem.runtime, user_id, vectors, 3))


def test_a_large_batch_against_a_tenant_above_the_read_bound_asks_the_index(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    filtered = mem.runtime.vector_filter.ready(mem.runtime.store)
    _seed(mem, user_id)
    vectors = mem.runtime.embedder.embed(["my dog Rex"] * nearest.BATCH_SCAN)
    monkeypatch.setattr(nearest, "FILTERED_READ_RATIO", 1)  # 10 vectors read tenants of up to 10: this is 12
    monkeypatch.setattr(nearest, "SMALL_TENANT", 0)
    monkeypatch.setattr(nearest, "IN_PROCESS_MAX", 10)
    calls = _count_reads(mem, monkeypatch)
    found = nearest.neighbours(mem.runtime, user_id, vectors, 2)
    assert calls == [
        "formation_tenant_small",
        ("filtered:" if filtered else "") + "formation_neighbours_index",
    ]
    assert {h.content for h in found[0]} == {"I adopted a puppy named Rex", "Rex chewed my shoes"}


def test_a_count_read_by_the_caller_is_used_only_under_the_same_cap(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(mem, user_id)
    vectors = mem.runtime.embedder.embed(["my dog Rex"] * nearest.BATCH_SCAN)
    cap = nearest.count_cap(mem.runtime, len(vectors))
    assert cap > len(TOPICS)  # 12 memories: small enough to read for a batch of 10
    calls = _count_reads(mem, monkeypatch)
    read = nearest.neighbours(mem.runtime, user_id, vectors, 2, counted=(len(TOPICS), cap))
    filtered = mem.runtime.vector_filter.ready(mem.runtime.store)  # 2026.01+: read as packed vectors
    tenant_read = ("filtered:" if filtered else "") + "formation_tenant_vectors"
    assert calls == [tenant_read]  # the caller's count, no second one
    calls.clear()
    stale = nearest.neighbours(mem.runtime, user_id, vectors, 2, counted=(len(TOPICS), cap + 1))
    assert calls == ["formation_tenant_small", tenant_read]  # counted again
    assert [[h.id for h in hs] for hs in stale] == [[h.id for h in hs] for hs in read]


def test_a_hand_written_occurred_at_of_another_type_reads_as_none(mem: GraphMemory, user_id: str) -> None:
    _seed(mem, user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {user_id: $u}) WITH m ORDER BY m.occurred_at LIMIT 2 "
        "WITH collect(m) AS ms SET (ms[0]).occurred_at = 'last spring', "
        "(ms[1]).occurred_at = localdatetime('2024-01-01T00:01:00')",
        {"u": user_id},
    )
    vectors = mem.runtime.embedder.embed(["my dog Rex"] * nearest.BATCH_SCAN)
    found = nearest.neighbours(mem.runtime, user_id, vectors, len(TOPICS))[0]
    when = {h.content: h.occurred_at for h in found}
    assert when[TOPICS[0]] is None and when[TOPICS[1]] is None  # the two rewritten, not a failed read
    assert when[TOPICS[2]] == T0 + timedelta(minutes=2)


def test_every_path_reads_the_same_times(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact scan, the index and the in-process read return occurred_at as epoch microseconds (the driver
    decodes a datetime in ~35 µs): each gives the stored time back to the microsecond, and none for a value of
    another type written by hand."""
    _seed(mem, user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {user_id: $u, content: $c}) SET m.occurred_at = datetime($t)",
        {"u": user_id, "c": TOPICS[3], "t": "2024-03-05T06:07:08.123456Z"},
    )
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {user_id: $u, content: $c}) SET m.occurred_at = 'last spring'",
        {"u": user_id, "c": TOPICS[4]},
    )
    vectors = mem.runtime.embedder.embed(["my dog Rex"] * nearest.BATCH_SCAN)
    k = len(TOPICS)
    scanned = nearest.exact(mem.runtime, user_id, vectors, k)[0]
    read = nearest.neighbours(mem.runtime, user_id, vectors, k)[0]  # a small tenant: read into process
    monkeypatch.setattr(nearest, "FILTERED_READ_RATIO", 0)
    monkeypatch.setattr(nearest, "SMALL_TENANT", 0)
    monkeypatch.setattr(nearest, "BATCH_SCAN", len(vectors) + 1)
    indexed = nearest.neighbours(mem.runtime, user_id, vectors, k)[0]
    payload = [{"i": 0, "embedding": vectors[0]}]
    filtered = mem.runtime.vector_filter.ready(mem.runtime.store)
    index = ("filtered:" if filtered else "") + "formation_neighbours_index"
    for name, extra in (("formation_neighbours", {}), (index, {"fetch": k})):
        rows = mem.runtime.store.read(name, user_id=user_id, vectors=payload, k=k, **extra)
        assert all(
            isinstance(h["occurred_us"], int | None) and "occurred_at" not in h for h in rows[0]["hits"]
        )
    for found in (scanned, read, indexed):
        when = {h.content: h.occurred_at for h in found}
        assert when[TOPICS[3]] == datetime(2024, 3, 5, 6, 7, 8, 123456, tzinfo=UTC)
        assert when[TOPICS[4]] is None
        assert when[TOPICS[0]] == T0


def test_a_stored_vector_that_is_not_finite_is_left_out_of_the_in_process_read(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # written by hand: a NaN coordinate (a packed read refuses the whole statement; the rows are read as
    # lists, where it reads as None) and a vector of another size; neither may make formation fail
    _seed(mem, user_id)
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {user_id: $u}) WHERE m.content STARTS WITH 'Rex' "
        "SET m.embedding = [0.0/0.0] + m.embedding[1..]",
        {"u": user_id},
    )
    mem.runtime.store.run_statement(
        "MATCH (m:Memory {user_id: $u}) WHERE m.content STARTS WITH 'We hiked' SET m.embedding = [1.0, 2.0]",
        {"u": user_id},
    )
    vectors = mem.runtime.embedder.embed(["my dog Rex", "bread baking", "a flight to Japan"] * 4)
    calls = _count_reads(mem, monkeypatch)
    found = nearest.neighbours(mem.runtime, user_id, vectors, len(TOPICS))
    assert calls[-1] == "formation_tenant_vectors"  # read as lists, in the end
    assert all(len(hs) == len(TOPICS) - 2 for hs in found)
    assert not {"Rex chewed my shoes", "We hiked up Snowdon"} & {h.content for hs in found for h in hs}
