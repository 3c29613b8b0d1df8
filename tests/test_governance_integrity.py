"""Audit events commit with their write (atomicity by fault injection on the real server), job runs carry
one event written with their end, idempotent updates, retained memories outlive forgetting and merges,
``as_of`` reads respect ``forgotten_at``, and the remaining bad input of the issue."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import by_time_alone, disposable
from store_calls import record_calls

from graphmem import (
    GraphMemory,
    MemoryNotFound,
    OnnxEmbedder,
    Settings,
    StoreError,
    VersionConflict,
)
from graphmem.store import audit
from graphmem.store.queries import query


@pytest.fixture()
def own(server: Any, embedder: OnnxEmbedder) -> Iterator[GraphMemory]:
    """A GraphMemory with its own automation config id: no test changes the shared configuration."""
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"))
    with GraphMemory.connect(settings=settings, embedder=embedder) as memory:
        memory.init()
        yield memory


def node(mem: GraphMemory, memory_id: str) -> dict[str, Any]:
    rows = mem.query("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", {"id": memory_id})
    return rows[0]["m"] if rows else {}


def count(mem: GraphMemory, user_id: str) -> dict[str, int]:
    """The user's nodes by label and idempotency keys (audit events aside)."""
    rows = mem.query(
        "MATCH (n) WHERE n.user_id = $u AND NOT n:AuditEvent RETURN labels(n)[0] AS label, count(*) AS n",
        {"u": user_id},
    )
    return {r["label"]: r["n"] for r in rows}


@contextmanager
def colliding_audit(mem: GraphMemory) -> Iterator[None]:
    """Every audit append inside the block reuses an existing event's id: the server refuses it (unique
    constraint) inside the write's own transaction."""
    other = disposable(f"test-{uuid.uuid4()}")
    mem.facts.set(other, "k", "v")
    taken = mem.temporal.audit_log(user_id=other)[0].id
    real = audit.event_row

    def colliding(action: str, **fields: Any) -> dict[str, Any]:
        return {**real(action, **fields), "id": taken}

    audit.event_row = colliding  # type: ignore[assignment]
    try:
        yield
    finally:
        audit.event_row = real  # type: ignore[assignment]


def test_a_failed_audit_append_rolls_the_write_back(mem: GraphMemory, user_id: str) -> None:
    with colliding_audit(mem):
        for call in (
            lambda: mem.remember("I adopted a dog named Rex", user_id=user_id, idempotency_key="k1"),
            lambda: mem.add_messages(
                ["I live in Lyon."], user_id=user_id, session_id="s", idempotency_key="k2"
            ),
            lambda: mem.facts.set(user_id, "city", "Lyon", idempotency_key="k3"),
        ):
            with pytest.raises(StoreError):
                call()
    assert count(mem, user_id) == {}  # no memory, fact, session, user node or idempotency key
    assert mem.temporal.audit_log(user_id=user_id) == []
    # The failed calls did not keep their keys: a retry writes once, and a repeat replays it.
    first = mem.remember("I adopted a dog named Rex", user_id=user_id, idempotency_key="k1")
    assert mem.remember("I adopted a dog named Rex", user_id=user_id, idempotency_key="k1") == first
    assert count(mem, user_id)["Memory"] == 1
    events = mem.temporal.audit_log(user_id=user_id)
    assert [(e.action, e.idempotency_key, e.target_ids) for e in events] == [("remember", "k1", (first.id,))]


def test_a_failed_audit_append_rolls_changes_back(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I like green tea", user_id=user_id)
    mem.facts.set(user_id, "city", "Lyon")
    with colliding_audit(mem):
        for call in (
            lambda: mem.forget(m.id, user_id=user_id),
            lambda: mem.memories.govern(m.id, user_id=user_id, decision="retain"),
            lambda: mem.memories.update(
                m.id, user_id=user_id, expected_version=1, content="I like black tea"
            ),
            lambda: mem.facts.retract(user_id, "city", idempotency_key="r"),
            lambda: mem.core.set(user_id, "human", "Name: Alice"),
        ):
            with pytest.raises(StoreError):
                call()
    state = node(mem, m.id)
    assert (state["status"], state["version"], state["content"]) == ("active", 1, "I like green tea")
    assert "retained" not in state and mem.memories.history(m.id, user_id=user_id) == [
        mem.memories.history(m.id, user_id=user_id)[0]
    ]
    assert [f.status for f in mem.facts.history(user_id, "city")] == ["current"]
    assert mem.core.list(user_id) == []
    assert [e.action for e in mem.temporal.audit_log(user_id=user_id)] == ["remember", "set_fact"]
    mem.core.set(user_id, "human", "Name: Alice")
    assert mem.temporal.audit_log(user_id=user_id)[-1].action == "core_block_write"


def test_a_failed_write_appends_no_event(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    with pytest.raises(MemoryNotFound):
        mem.forget(str(uuid.uuid4()), user_id=user_id)
    with pytest.raises(VersionConflict):
        mem.memories.update(m.id, user_id=user_id, expected_version=7, content="x")
    with pytest.raises(MemoryNotFound):
        mem.memories.govern(str(uuid.uuid4()), user_id=user_id, decision="retain")
    assert [e.action for e in mem.temporal.audit_log(user_id=user_id)] == ["remember"]


def test_a_job_run_has_one_event_written_with_its_end(own: GraphMemory, user_id: str) -> None:
    own.remember("I adopted a dog named Rex", user_id=user_id)
    run = own.jobs.run("decay", user_id=user_id)
    events = [e for e in own.temporal.audit_log(user_id=user_id) if e.action.startswith("job:")]
    assert len(events) == 1 and events[0].target_ids == (run.id,)
    assert events[0].at == run.finished_at and events[0].details["status"] == run.status == "success"


def test_update_memory_idempotency_key_is_audited_and_replayed(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    first = mem.memories.update(
        m.id, user_id=user_id, expected_version=1, content="Rex", idempotency_key="u1"
    )
    again = mem.memories.update(
        m.id, user_id=user_id, expected_version=1, content="Rex", idempotency_key="u1"
    )
    assert again == first and first.version == 2
    assert len(mem.memories.history(m.id, user_id=user_id)) == 2
    updates = [e for e in mem.temporal.audit_log(user_id=user_id) if e.action == "update_memory"]
    assert [(e.idempotency_key, e.version) for e in updates] == [("u1", 2)]


def test_an_update_reads_back_the_memory_not_its_versions(
    mem: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before round 56 update() read and built every version to return the last (56 ms an update over a
    memory's first 500 versions, 109 ms over the next 478: a helper's volume probe)."""
    m = mem.remember("version 0 of my note", user_id=user_id)
    for i in range(1, 4):
        m = mem.memories.update(m.id, user_id=user_id, content=f"version {i}", expected_version=m.version)
    reads = record_calls(mem.runtime.store, "read", monkeypatch)
    got = mem.memories.update(m.id, user_id=user_id, content="version 4", expected_version=4)
    assert (got.content, got.version) == ("version 4", 5) and got == mem.memories.get(m.id, user_id=user_id)
    assert "memory_versions" not in reads


def test_retained_memories_are_never_forgotten_or_merged_away(own: GraphMemory, user_id: str) -> None:
    cfg = own.automation.get_config()
    own.automation.set_config(
        cfg.model_copy(update={"dynamics": cfg.dynamics.model_copy(update={"capacity_per_user": 1})})
    )
    kept = own.remember("The vending machine was out of crisps", user_id=user_id, priority="P3")
    plain = own.remember("Saw a red bicycle this morning", user_id=user_id, priority="P3")
    own.memories.govern(kept.id, user_id=user_id, decision="retain")
    # over capacity (2 > 1): the retained memory is exempt even though it is the weakest
    own.runtime.store.run_statement("MATCH (m:Memory {id: $id}) SET m.strength = 0.01", {"id": kept.id})
    run = own.jobs.run("forget", user_id=user_id)
    assert run.counts["capacity_forgotten"] == 1
    assert node(own, kept.id)["status"] == "active" and node(own, plain.id)["status"] == "forgotten"
    # decayed far below every threshold, forgotten by nothing, hard-deleted by nothing (by time alone: with
    # the default forget_min_newer the tenant's two memories are never enough for decay to forget anything)
    by_time_alone(own)
    assert kept.created_at is not None
    later = kept.created_at + timedelta(days=400)
    own.jobs.run("decay", user_id=user_id, now=later)
    own.jobs.run("forget", user_id=user_id, now=later)
    own.jobs.run("forget", user_id=user_id, now=later + timedelta(days=60))
    assert node(own, kept.id)["status"] != "forgotten"
    # a near-duplicate of it, older, would normally absorb it: it stays
    twin = own.runtime.store.run_statement(
        "MATCH (a:Memory {id: $id}) CREATE (b:Memory) SET b = a {.*, id: randomUUID(), retained: null, "
        "content: a.content + '.', created_at: a.created_at - duration('PT1S'), status: 'active'} "
        "CREATE (a)-[:RELATED_TO {weight: 0.9}]->(b) RETURN b.id AS id",
        {"id": kept.id},
    )[0]["id"]
    assert own.jobs.run("consolidate", user_id=user_id).counts["merged"] == 0
    assert node(own, kept.id)["status"] != "superseded" and node(own, twin)["status"] == "active"


def test_as_of_reads_respect_forgotten_at(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I keep my passport in the blue drawer", user_id=user_id)
    before = datetime.now(UTC)
    mem.forget(m.id, user_id=user_id)
    after = datetime.now(UTC) + timedelta(seconds=1)
    assert node(mem, m.id)["forgotten_at"] > before

    def ids(**kw: Any) -> list[str]:
        return [
            h.memory.id for h in mem.recall("where is my passport?", user_id=user_id, reinforce=False, **kw)
        ]

    assert m.id in ids(as_of=before) and m.id not in ids(as_of=after) and m.id not in ids()
    assert m.id in [n.id for n in mem.temporal.snapshot(user_id, as_of=before).nodes]
    assert m.id not in [n.id for n in mem.temporal.snapshot(user_id, as_of=after).nodes]
    kinds = [e.kind for e in mem.temporal.timeline(user_id)]
    assert kinds == ["memory", "memory_forgotten"]


def test_remaining_bad_input(mem: GraphMemory, user_id: str) -> None:
    nobody = f"nobody-{uuid.uuid4()}"
    future = datetime.now(UTC) + timedelta(days=3650)
    assert mem.temporal.snapshot(nobody, as_of=future).nodes == [] and mem.temporal.timeline(nobody) == []
    assert mem.temporal.audit_log(user_id=nobody) == [] and mem.recall("anything", user_id=nobody) == []
    exported = mem.users.export(nobody)
    assert exported["memories"] == [] and exported["audit"] == []
    assert mem.users.delete(nobody).deleted == 0 and mem.users.delete(nobody).deleted == 0
    # as_of in the future and naive datetimes (read as UTC) in snapshots
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    assert m.id in [n.id for n in mem.temporal.snapshot(user_id, as_of=future).nodes]
    assert mem.temporal.snapshot(user_id, as_of=datetime(2000, 1, 1)).nodes == []  # before any record


def test_deletion_and_export_scan_the_same_labels(mem: GraphMemory, user_id: str) -> None:
    """user_nodes (export, anonymize), user_delete and user_stored (is anything stored?) list the same
    labels, and the labels of every node a user's activity creates are among them (each looked up through its
    user_id index)."""
    labels = {
        name: re.findall(r"MATCH \(n:(\w+)\) WHERE n.user_id = \$user_id", query(name))
        for name in ("user_nodes", "user_delete", "user_delete_begin", "user_stored")
    }
    assert len({tuple(found) for found in labels.values()}) == 1, labels
    assert len(labels["user_nodes"]) >= 12
    indexed = {
        r["label"]
        for r in mem.query(
            "SHOW INDEXES YIELD labelsOrTypes, properties WHERE properties = ['user_id'] "
            "RETURN labelsOrTypes[0] AS label"
        )
    }
    assert set(labels["user_nodes"]) <= indexed
    m = mem.remember("I adopted a dog named Rex", user_id=user_id, session_id="s", idempotency_key="k")
    mem.add_messages(["I love hiking in the Alps."], user_id=user_id, session_id="s")
    mem.memories.update(m.id, user_id=user_id, expected_version=1, content="I adopted a dog named Max")
    mem.facts.set(user_id, "city", "Lyon")
    mem.recall("what is my dog called?", user_id=user_id)
    mem.memories.feedback(m.id, user_id=user_id, useful=True)
    present = {
        r["label"]
        for r in mem.query(
            "MATCH (n) WHERE n.user_id = $u AND NOT n:AuditEvent "
            "UNWIND labels(n) AS label RETURN DISTINCT label",
            {"u": user_id},
        )
    }
    assert present - {"CoreBlock", "StoreItem"} <= set(labels["user_nodes"]), present
    report = mem.users.delete(user_id)
    assert report.nodes["Memory"] == 2 and report.nodes["IdempotencyKey"] == 1 and report.relationships > 0
    assert mem.query(
        "MATCH (n) WHERE n.user_id = $u AND NOT n:AuditEvent RETURN count(n) AS n", {"u": user_id}
    ) == [{"n": 0}]
