"""Dynamics v2 on the real server: priority-correct decay, dry runs, growth control, the strength factors."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import by_time_alone, disposable

from graphmem import GraphMemory, SentenceTransformerEmbedder, Settings
from graphmem.automation.config import JOB_NAMES
from graphmem.model import heuristics
from graphmem.store.queries import expand


@pytest.fixture()
def dyn(server: Any, embedder: SentenceTransformerEmbedder) -> Iterator[GraphMemory]:
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"))
    with GraphMemory.connect(settings=settings, embedder=embedder) as memory:
        memory.init()
        yield by_time_alone(memory)


def tenant_state(mem: GraphMemory, user_id: str) -> dict[str, Any]:
    """Every node and relationship of the tenant with all properties, and its job runs and audit events."""
    nodes = mem.query(
        "MATCH (n) WHERE n.user_id = $u RETURN labels(n) AS l, n {.*, embedding: null} AS n ORDER BY n.id",
        {"u": user_id},
    )
    rels = mem.query(
        "MATCH (n)-[r]->(o) WHERE n.user_id = $u RETURN type(r) AS t, properties(r) AS p, "
        "elementId(n) AS a, elementId(o) AS b ORDER BY a, b, t",
        {"u": user_id},
    )
    runs = mem.query("MATCH (r:JobRun) WHERE r.user_id = $u RETURN count(r) AS n", {"u": user_id})
    return {"nodes": nodes, "rels": rels, "runs": runs}


def test_p0_stays_active_after_400_days_while_p3_fades(dyn: GraphMemory, user_id: str) -> None:
    p0 = dyn.remember("My daughter is allergic to peanuts", user_id=user_id, priority="P0")
    p3 = dyn.remember("Had a sandwich for lunch", user_id=user_id, priority="P3")
    assert p0.created_at is not None
    later = p0.created_at + timedelta(days=400)
    dyn.jobs.run("decay", user_id=user_id, now=later)
    dyn.jobs.run("forget", user_id=user_id, now=later)
    rows = {
        r["id"]: r
        for r in dyn.query(
            expand(
                "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.status AS status, "
                "{{retention_now(m, $now)}} AS retention, {{strength_now(m, $now)}} AS strength"
            ),
            {"u": user_id, "now": later},
        )
    }
    assert rows[p0.id]["status"] == "active" and rows[p0.id]["retention"] == 1.0
    assert rows[p0.id]["strength"] == pytest.approx(1.0)
    assert rows[p3.id]["status"] == "forgotten"


def test_imported_history_gets_a_grace_period_from_when_it_was_recorded(
    dyn: GraphMemory, user_id: str
) -> None:
    """A message from two years ago, stored today, is not forgotten by tonight's jobs."""
    made = dyn.add_messages(
        [{"role": "user", "content": "We went hiking at the lake", "timestamp": "2023-01-05T10:00:00+00:00"}],
        user_id=user_id,
        session_id="import-1",
    )
    dyn._rt.store.run_statement("MATCH (m:Memory {id: $id}) SET m.priority = 'P3'", {"id": made[0].id})
    recorded = dyn.query("MATCH (m:Memory {id: $id}) RETURN m.recorded_at AS t", {"id": made[0].id})[0]["t"]
    for days in (1, 3):
        dyn.jobs.run("decay", user_id=user_id, now=recorded + timedelta(days=days))
        dyn.jobs.run("forget", user_id=user_id, now=recorded + timedelta(days=days))
        status = dyn.query("MATCH (m:Memory {id: $id}) RETURN m.status AS s", {"id": made[0].id})[0]["s"]
        assert status == "active"


def test_dry_run_reports_changes_and_writes_nothing(dyn: GraphMemory, user_id: str) -> None:
    for i in range(6):
        dyn.remember(f"Small talk number {i} about the weather today", user_id=user_id, priority="P3")
    first = dyn.remember("Dentist appointment on Friday", user_id=user_id, priority="P3")
    assert first.created_at is not None
    later = first.created_at + timedelta(days=90)
    dyn.jobs.run("decay", user_id=user_id, now=first.created_at + timedelta(days=1))
    before = tenant_state(dyn, user_id)
    runs = {}
    for job in JOB_NAMES:  # every job of the control plane, topics and adapt included
        run = dyn.jobs.run(job, user_id=user_id, now=later, dry_run=True)
        assert run.status == "dry_run", (job, run.error)
        runs[job] = run.counts
        assert tenant_state(dyn, user_id) == before, job
    assert runs["decay"]["memories"] == 7 and runs["decay"]["status_changed"] == 7
    # forget sees the store as it is (decayed yesterday): nothing below the thresholds yet, but run for
    # real, decay then forget would forget them; the dry run of forget after a real decay says so
    dyn.jobs.run("decay", user_id=user_id, now=later)
    decayed = tenant_state(dyn, user_id)
    run = dyn.jobs.run("forget", user_id=user_id, now=later, dry_run=True)
    assert run.counts["soft_forgotten"] == 7
    assert tenant_state(dyn, user_id) == decayed
    real = dyn.jobs.run("forget", user_id=user_id, now=later)
    assert real.counts["soft_forgotten"] == 7


def test_an_emotional_or_emphasised_memory_outlives_a_neutral_one(dyn: GraphMemory, user_id: str) -> None:
    texts = {
        "neutral": "The bus to the office leaves from platform two",
        "emotional": "I was absolutely heartbroken and furious when they cancelled my wedding venue!",
        "emphasised": "Remember this: the **garage code** is 4711",
    }
    ids = {k: dyn.remember(t, user_id=user_id, priority="P3").id for k, t in texts.items()}
    dyn._rt.store.run_statement("MATCH (m:Memory {user_id: $u})-[r:RELATED_TO]-() DELETE r", {"u": user_id})
    start = dyn.query("MATCH (m:Memory {id: $id}) RETURN m.created_at AS t", {"id": ids["neutral"]})[0]["t"]
    assert dyn.jobs.run("consolidate", user_id=user_id, now=start).counts["factored"] == 3
    forgotten_on: dict[str, int] = {}
    for day in range(1, 41):
        now = start + timedelta(days=day)
        dyn.jobs.run("decay", user_id=user_id, now=now)
        dyn.jobs.run("forget", user_id=user_id, now=now)
        rows = dyn.query(
            "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.status AS s", {"u": user_id}
        )
        for row in rows:
            kind = next(k for k, v in ids.items() if v == row["id"])
            if row["s"] == "forgotten":
                forgotten_on.setdefault(kind, day)
    assert "neutral" in forgotten_on
    for kind in ("emotional", "emphasised"):
        assert forgotten_on.get(kind, 99) > forgotten_on["neutral"], forgotten_on


def _shape(snap: Any, leave_out: set[str]) -> tuple[set[Any], set[Any]]:
    """What an as_of read shows: every node with its content or name, and every edge."""
    nodes = {
        (n.label, n.id, n.properties.get("content"), n.properties.get("name"))
        for n in snap.nodes
        if n.id not in leave_out and n.properties.get("uid") not in leave_out
    }
    return nodes, {(e.src, e.type, e.dst) for e in snap.edges}


def test_compaction_folds_recall_events_and_keeps_audits_and_as_of_reads(
    dyn: GraphMemory, user_id: str
) -> None:
    a = dyn.remember("Our cat Miso loves tuna", user_id=user_id, session_id="s1")
    dyn.remember("Miso sleeps on the radiator", user_id=user_id, session_id="s1")
    assert a.created_at is not None
    for _ in range(3):
        dyn.recall("what does the cat like", user_id=user_id)
    events = dyn.query("MATCH (e:RecallEvent) WHERE e.user_id = $u RETURN count(e) AS n", {"u": user_id})
    assert events[0]["n"] == 3
    # an entity left alone (its memories deleted for good) and an empty session are compacted away
    dyn._rt.store.run_statement(
        "CREATE (:Entity {id: $e, user_id: $u, name: 'nobody'}), (:Session {uid: $s, user_id: $u})",
        {"e": f"{user_id}-orphan", "u": user_id, "s": f"{user_id}-empty"},
    )
    audit_before = [e.model_dump() for e in dyn.temporal.audit_log(user_id=user_id)]
    as_of = datetime.now(UTC)
    snap_before = _shape(
        dyn.temporal.snapshot(user_id, as_of=as_of), {f"{user_id}-orphan", f"{user_id}-empty"}
    )
    later = a.created_at + timedelta(days=120)
    run = dyn.jobs.run("consolidate", user_id=user_id, now=later)
    assert run.counts["recall_events_compacted"] == 3 and run.counts["recall_days_compacted"] >= 1
    assert run.counts["orphan_entities"] == 1 and run.counts["empty_sessions"] == 1
    left = dyn.query(
        "MATCH (e:RecallEvent) WHERE e.user_id = $u RETURN e.rollup AS rollup, e.events AS n", {"u": user_id}
    )
    assert left and all(r["rollup"] for r in left) and sum(r["n"] for r in left) == 3
    counters = dyn.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN sum(coalesce(m.recalls_compacted, 0)) AS n",
        {"u": user_id},
    )
    assert counters[0]["n"] >= 3
    audit_after = [e.model_dump() for e in dyn.temporal.audit_log(user_id=user_id)]
    assert audit_after[: len(audit_before)] == audit_before  # nothing lost; the job adds its own event
    assert _shape(dyn.temporal.snapshot(user_id, as_of=as_of), set()) == snap_before
    assert dyn.jobs.run("consolidate", user_id=user_id, now=later).counts["recall_events_compacted"] == 0


def test_associate_is_incremental(dyn: GraphMemory, user_id: str) -> None:
    for text in (
        "I like green tea",
        "Green tea is my favourite drink",
        "Matcha is a green tea",
        "I run daily",
    ):
        dyn.remember(text, user_id=user_id)
    first = dyn.jobs.run("associate", user_id=user_id)
    assert first.status == "success" and first.counts["pending"] == 4
    again = dyn.jobs.run("associate", user_id=user_id)
    assert again.counts["pending"] == 0 and again.counts["method"] == "vector_index"
    assert again.counts["memories"] == 0  # nothing searched again
    dyn.remember("Sencha is a Japanese green tea", user_id=user_id)
    new = dyn.jobs.run("associate", user_id=user_id)
    assert new.counts["pending"] == 1 and new.counts["memories"] == 1 and new.counts["edges"] >= 1


def test_the_serial_position_the_job_stores_is_the_pure_rules(dyn: GraphMemory, user_id: str) -> None:
    """Each memory's serial position is heuristics.serial_position of how many of its session's memories were
    said strictly before it (two said at once share a place) and the session's size. Counted per memory over
    its whole session until round 54 (a first consolidate of a 10,000-turn session took 117 s); now from
    the session's times read once."""
    start = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    minutes = [0, 1, 1, 2, 5, 9, 9, 9, 12, 20]  # ties: 1, 1 and 9, 9, 9
    turns = [
        {
            "role": "user",
            "content": f"Turn {i}: the {w} note about gardening",
            "timestamp": start + timedelta(minutes=m),
        }
        for i, (m, w) in enumerate(
            zip(
                minutes,
                ["red", "blue", "green", "tall", "wide", "odd", "new", "old", "big", "last"],
                strict=True,
            )
        )
    ]
    made = dyn.add_messages(turns, user_id=user_id, session_id="s1")
    assert len({m.id for m in made}) == len(turns)
    alone = dyn.remember("A note without a session: the tomatoes need staking", user_id=user_id)
    dyn.jobs.run("consolidate", user_id=user_id, now=start + timedelta(days=1))
    stored = {
        r["id"]: r["serial"]
        for r in dyn.query(
            "MATCH (m:Memory {user_id: $u}) RETURN m.id AS id, m.serial AS serial", {"u": user_id}
        )
    }
    assert stored[alone.id] == pytest.approx(heuristics.serial_position(0, 0))  # no session: no place
    for memory, minute in zip(made, minutes, strict=True):
        before = sum(1 for other in minutes if other < minute)
        assert stored[memory.id] == pytest.approx(heuristics.serial_position(before, len(turns))), minute
