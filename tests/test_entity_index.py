"""Entity resolution through the entity vector index (schema/042): a user with many entities has a new name's
closest stored entities found by the index, as the scan finds them, at a cost that does not grow with the
user's entities (graphmem.formation.gather.ENTITY_SCAN_MAX; measured by benchmarks/formation_profile.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMemory
from graphmem.formation import gather
from graphmem.store import migrations
from graphmem.store.queries import FILTERED, query, schema_statements

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
PEOPLE = [
    "Aaron", "Bianca", "Carlos", "Delia", "Emeka", "Farah", "Gustav", "Hiroshi", "Ingrid", "Jamal",
    "Katya", "Lorenzo", "Mirela", "Nikhil", "Odile", "Pavel", "Quentin", "Rosalind", "Soren", "Tamsin",
    "Ulrich", "Valentina", "Wendell", "Ximena", "Yusuf", "Zelda", "Anselm", "Beatrix", "Cormac", "Dagny",
    "Evander", "Fenella", "Gideon", "Honora", "Ignatius", "Jessamy", "Kasimir", "Leocadia", "Mortimer",
    "Nerys", "Octavian", "Perpetua", "Radovan", "Sabine", "Thaddeus", "Ursula", "Vasco", "Wilhelmina",
    "Xavier", "Yolanda", "Zebedee", "Amadeus", "Briony", "Casimir", "Drusilla", "Eamon", "Florian",
    "Griselda", "Horatio", "Isolde",
]  # fmt: skip


def stored_entities(mem: GraphMemory, user_id: str) -> dict[str, Any]:
    rows = mem.query(
        "MATCH (e:Entity {user_id: $u}) RETURN e.key AS key, e.aliases AS aliases", {"u": user_id}
    )
    return {r["key"]: r for r in rows}


def test_a_user_with_many_entities_resolves_a_variant_through_the_index(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not mem.runtime.entity_index.ready(mem.runtime.store):
        pytest.skip("the server cannot filter inside a vector index (Neo4j 5.26): entities are scanned")
    messages = [{"role": "user", "content": "I flew to New York for the conference.", "timestamp": T0}]
    messages += [
        {
            "role": "user",
            "content": f"I had lunch with {name} today.",
            "timestamp": T0 + timedelta(hours=i + 1),
        }
        for i, name in enumerate(PEOPLE)
    ]
    mem.add_messages(messages, user_id=user_id, session_id="s1")
    assert len(stored_entities(mem, user_id)) > gather.ENTITY_SCAN_MAX
    asked: list[str] = []
    read = mem.runtime.store.read

    def spy(name: str, /, **params: Any) -> Any:
        asked.append(name)
        return read(name, **params)

    monkeypatch.setattr(mem.runtime.store, "read", spy)
    later = T0 + timedelta(days=2)
    mem.add_messages(
        [{"role": "user", "content": "New York City was loud but I loved it.", "timestamp": later}],
        user_id=user_id,
        session_id="s2",
    )
    assert FILTERED + "entity_similar_index" in asked and "entity_similar" not in asked
    entities = stored_entities(mem, user_id)
    assert "new york city" not in entities and "New York City" in entities["new york"]["aliases"]


def test_the_index_finds_what_the_scan_finds(mem: GraphMemory, user_id: str) -> None:
    """Both reads over the same stored entities and new names: the same closest entities and scores."""
    if not mem.runtime.entity_index.ready(mem.runtime.store):
        pytest.skip("the server cannot filter inside a vector index (Neo4j 5.26): entities are scanned")
    mem.add_messages(
        [
            {
                "role": "user",
                "content": f"I had lunch with {name} today.",
                "timestamp": T0 + timedelta(hours=i),
            }
            for i, name in enumerate(PEOPLE)
        ],
        user_id=user_id,
        session_id="s1",
    )
    names = ["Aron", "Biancha", "Karl", "Zeldah", "Horace", "Wilhelm"]
    vectors = mem.runtime.embedder.embed(names)
    asked = [{"key": n.lower(), "embedding": v} for n, v in zip(names, vectors, strict=True)]
    store, k = mem.runtime.store, gather.ENTITY_MATCHES
    scan = store.read("entity_similar", user_id=user_id, names=asked, min_score=0.8, k=k)
    index = store.read(FILTERED + "entity_similar_index", user_id=user_id, names=asked, min_score=0.8, k=k)

    def found(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
        return {r["key"]: {m["key"]: m["score"] for m in r["matches"]} for r in rows}

    by_scan, by_index = found(scan), found(index)
    assert any(by_scan.values())  # the names are close to some stored ones
    for name, matches in by_scan.items():  # the index ranks quantized vectors, so near-ties at the cut may
        # differ; the scores are the exact cosines either way
        if not matches:
            assert not by_index[name]
            continue
        best = max(matches, key=matches.__getitem__)
        assert max(by_index[name], key=by_index[name].__getitem__) == best
        common = by_index[name].keys() & matches.keys()
        assert len(common) >= len(matches) - 1
        assert {k: by_index[name][k] for k in common} == pytest.approx(
            {k: matches[k] for k in common}, rel=1e-9
        )


def test_migration_gives_the_entity_index_its_tenant_filter(mem: GraphMemory) -> None:
    """An entity index made where the server could not filter (created on 5.26, then upgraded) is recreated
    with the tenant filter by init()'s migration; until then entity resolution scans."""
    rt = mem.runtime
    if not migrations.server_filters_vectors(rt):
        assert not rt.entity_index.ready(rt.store)
        return
    plain = dict(schema_statements(filtered=False))["042_entity_embedding_vector"]
    rt.store.run_statement(query("schema_vector_index_drop"), {"name": "entity_embedding"})
    try:
        rt.store.run_statement(plain, {"dimension": rt.embedder.dimension})
        rt.store.run_statement(query("schema_await_index"), {"name": "entity_embedding", "seconds": 600})
        rt.entity_index.reset()
        assert rt.entity_index.online(rt.store) and not rt.entity_index.ready(rt.store)
        assert migrations.migrate(rt, filtered=True) == ["entity_embedding"]
        assert migrations.migrate(rt, filtered=True) == []  # idempotent
    finally:
        mem.init()
    assert rt.entity_index.ready(rt.store)


def test_a_missing_entity_index_falls_back_to_the_scan(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process dropped the index this client believes online: the failed read resets the state and
    the same names are resolved by the scan."""
    rt = mem.runtime
    if not rt.entity_index.ready(rt.store):
        pytest.skip("the server cannot filter inside a vector index (Neo4j 5.26): entities are scanned")
    mem.add_messages(
        [{"role": "user", "content": "I flew to New York for the conference.", "timestamp": T0}],
        user_id=user_id,
        session_id="s1",
    )
    monkeypatch.setattr(gather, "ENTITY_SCAN_MAX", 0)  # this user's one entity is enough to ask the index
    rt.store.run_statement(query("schema_vector_index_drop"), {"name": "entity_embedding"})
    try:
        mem.add_messages(
            [{"role": "user", "content": "New York City was loud.", "timestamp": T0 + timedelta(days=1)}],
            user_id=user_id,
            session_id="s2",
        )
        assert "new york city" not in stored_entities(mem, user_id)  # resolved by the scan
        assert not rt.entity_index.online(rt.store)
    finally:
        mem.init()  # creates the index again; it populates in the background over the suite's entities
        rt.store.run_statement(query("schema_await_index"), {"name": "entity_embedding", "seconds": 600})
        rt.entity_index.reset()
    assert rt.entity_index.ready(rt.store)
