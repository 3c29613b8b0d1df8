"""Stored data can never make a later read fail: hostile values written directly with Cypher (lone
surrogates, NaN, huge strings, odd types, unreadable metadata), then recall, context, export, snapshot,
history and the REST reads still answer (issue 15, defect 1's read side)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from graphmem import GraphMemory
from graphmem.adapters.rest import create_app

KEY = "hostile-test-key"
# Cypher-side escapes: the driver itself cannot send a lone surrogate, a hand-written statement can.
HOSTILE = [
    ("m.metadata", '\'{"k": "\\\\udfff", "n": NaN, "i": Infinity, "deep": [[[[1]]]]}\''),
    ("m.metadata", "'not json at all {'"),
    ("m.metadata", "'[1, 2, 3]'"),
    ("m.metadata", "42"),
    ("m.content", "'caf\\uDFFF ' + reduce(s = '', i IN range(1, 2000) | s + 'huge text ')"),
    ("m.tags", "['ok', '\\uD800']"),
    ("m.importance", "0.0 / 0.0"),
    ("m.strength", "'strong'"),
    ("m.priority", "'P9'"),
    ("m.speaker", "'\\uDFFF'"),
    # round 52's probe: each failed every read of the user (a TypeError or a broken record: REST 500s)
    ("m.lab_custom", "duration('P1D')"),  # a Duration is a tuple the driver's class cannot rebuild
    ("m.lab_list", "[duration('PT5M'), duration('P2D')]"),
    ("m.lab_far", "datetime('+999999999-12-31T23:59:59Z')"),  # epoch seconds overflow on the server
    ("m.created_at", "date('+999999-01-01')"),  # past Python's calendar: the driver fails the record
    ("m.recorded_at", "localdatetime('2025-01-02T00:00')"),  # naive: failed comparisons with zoned times
    (
        "m.id",
        "toInteger(rand() * 1e15)",
    ),  # not text: failed the sort of recall's ids and the snapshot's model
]


@pytest.fixture()
def hostile_user(mem: GraphMemory, user_id: str) -> str:
    memories = mem.add_messages(
        [f"I like hiking in the Alps, note {i}" for i in range(len(HOSTILE))],
        user_id=user_id,
        session_id="s",
    )
    for memory, (prop, expression) in zip(memories, HOSTILE, strict=True):
        mem.runtime.store.run_statement(
            f"MATCH (m:Memory {{id: $id}}) SET {prop} = {expression}", {"id": memory.id}
        )
    return user_id


@pytest.fixture()
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def test_python_reads_survive_hostile_stored_values(mem: GraphMemory, hostile_user: str) -> None:
    hits = mem.recall("hiking in the Alps", user_id=hostile_user, k=20)
    assert len(hits) >= len(HOSTILE) - 1  # the memory whose id is a number is not fetched by its id's text
    for hit in hits:
        hit.model_dump_json()  # serialisable: no lone surrogate, no NaN left
    json.dumps(mem.users.export(hostile_user), allow_nan=False)
    mem.context("hiking", user_id=hostile_user).model_dump_json()
    snapshot = mem.temporal.snapshot(hostile_user, as_of=datetime.now(UTC) + timedelta(seconds=1))
    assert len(snapshot.nodes) >= len(HOSTILE)
    snapshot.model_dump_json()
    listed = mem.memories.list(hostile_user, limit=100)
    assert len(listed) == len(HOSTILE)
    # a page after a memory named by its id's text (not the one whose stored id is a number: its turn was said
    # last, so it lists first since round 57 timed untimed turns in the order given)
    i = next(i for i, m in enumerate(listed) if not m.id.isdigit())
    assert mem.memories.list(hostile_user, after=listed[i].id) == listed[i + 1 :]
    mem.temporal.diff(hostile_user, datetime.now(UTC) - timedelta(days=1), datetime.now(UTC))
    for hit in hits:
        mem.memories.get(hit.memory.id, user_id=hostile_user).model_dump_json()
        for version in mem.memories.history(hit.memory.id, user_id=hostile_user):
            version.model_dump_json()


def test_rest_reads_survive_hostile_stored_values(client: TestClient, hostile_user: str) -> None:
    recall = client.post(f"/users/{hostile_user}/recall", json={"query": "hiking in the Alps", "k": 20})
    assert recall.status_code == 200, recall.text
    assert len(recall.json()) >= len(HOSTILE) - 1
    for path in ("export", "timeline", "core", "memories"):
        response = client.get(f"/users/{hostile_user}/{path}")
        assert response.status_code == 200, (path, response.text[:300])
    context = client.post(f"/users/{hostile_user}/context", json={"query": "hiking"})
    assert context.status_code == 200, context.text[:300]
