"""Stored values never make a later read fail, on the real server: each read path that parses stored JSON
or trusts a stored value's type gets a hostile value written with raw Cypher (text that is not JSON, JSON of
the wrong shape, nesting deeper than the decoder takes, a lone surrogate or NaN in JSON, a list where text or
a map is expected, rich markup), then reads through the public API (Python, REST, CLI) and gets a sensible
value.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import disposable
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from graphmem import GraphMemory, ValidationError
from graphmem.adapters import auth, dashboard, ops
from graphmem.adapters.langgraph import GraphMemStore
from graphmem.adapters.rest import create_app
from graphmem.cli.main import app
from graphmem.store.records import clean_text

KEY = "stored-values-test-key"
DEEP = "[" * 5000 + "]" * 5000  # valid JSON, deeper than json.loads recurses
HOSTILE_JSON = ["not json {", "[1, 2]", DEEP, '{"k": "\\udfff", "n": NaN}']
CLEANED = {"k": clean_text("\udfff"), "n": None}  # what the last one reads as


@pytest.fixture()
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def cypher(mem: GraphMemory, statement: str, **params: Any) -> list[dict[str, Any]]:
    return mem.runtime.store.run_statement(statement, params)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


@pytest.mark.parametrize("details", [*HOSTILE_JSON, ["a", "list"]])
def test_audit_details_of_any_shape_read(
    mem: GraphMemory, client: TestClient, user_id: str, details: Any, caplog: pytest.LogCaptureFixture
) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    cypher(
        mem,
        "MATCH (e:AuditEvent) WHERE e.user_id = $u "
        "SET e.details = $d, e.target_ids = 'one id', e.at = 'then'",
        u=user_id,
        d=details,
    )
    events = mem.temporal.audit_log(user_id=user_id)
    assert events and all(e.details in ({}, CLEANED) for e in events)
    assert events[0].target_ids == () and events[0].at.year == 1970
    assert any("audit event" in w for w in warnings(caplog))
    response = client.get(f"/users/{user_id}/export")
    assert response.status_code == 200, response.text
    assert response.json()["audit"]


def test_job_runs_with_odd_stored_fields_read(mem: GraphMemory, client: TestClient, user_id: str) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)  # a job skips a user of no data
    run = mem.jobs.run("decay", user_id=user_id)
    cypher(
        mem,
        "MATCH (j:JobRun {id: $id}) SET j.counts = $deep, j.status = 'cancelled', j.error = ['a', 'b'],"
        " j.trigger = 7",
        id=run.id,
        deep=DEEP,
    )
    [read] = [r for r in mem.automation.runs(50, user_id=user_id) if r.id == run.id]
    assert (read.counts, read.status, read.error, read.trigger) == ({}, "interrupted", '["a", "b"]', "manual")
    response = client.get("/automation/logs", params={"user_id": user_id, "limit": 50})
    assert response.status_code == 200, response.text
    result = CliRunner().invoke(app, ["jobs", "list"])
    assert result.exit_code == 0, result.output


def test_topics_with_odd_keywords_and_entities_read(
    mem: GraphMemory, client: TestClient, user_id: str
) -> None:
    for text in ("My dog Rex loves the park", "Rex the dog chases balls in the park", "The park is near"):
        mem.remember(text, user_id=user_id)
    mem.topics.rebuild(user_id)
    cypher(
        mem,
        "MATCH (t:Topic) WHERE t.user_id = $u SET t.keywords = 'dog', t.entities = [1, 2], t.size = 'many',"
        " t.name = '[/]'",
        u=user_id,
    )
    topics = mem.topics.list(user_id)
    assert topics and all(t.keywords == [] and t.entities == ["1", "2"] and t.size == 0 for t in topics)
    response = client.get(f"/users/{user_id}/topics")
    assert response.status_code == 200, response.text
    result = CliRunner().invoke(app, ["topics", "list", "--user", user_id])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("value", [*HOSTILE_JSON, 42])
def test_langgraph_items_with_odd_stored_values_read(
    mem: GraphMemory, user_id: str, value: Any, caplog: pytest.LogCaptureFixture
) -> None:
    store = GraphMemStore(mem, user_id=user_id)
    store.put(("prefs",), "food", {"likes": "pizza"})
    cypher(mem, "MATCH (m:StoreItem) WHERE m.user_id = $u SET m.store_value = $v", u=user_id, v=value)
    item = store.get(("prefs",), "food")
    assert item is not None and item.value in ({}, CLEANED)
    assert [i.key for i in store.search(("prefs",), filter={"likes": "pizza"})] == []
    assert [i.key for i in store.search(("prefs",))] == ["food"]
    if value != '{"k": "\\udfff", "n": NaN}':
        assert any("store item" in w for w in warnings(caplog))


def test_langgraph_items_with_odd_namespaces_and_times_read(mem: GraphMemory, user_id: str) -> None:
    store = GraphMemStore(mem, user_id=user_id)
    store.put(("prefs",), "food", {"likes": "pizza"})
    cypher(
        mem,
        "MATCH (m:StoreItem) WHERE m.user_id = $u SET m.created_at = 'yesterday', m.updated_at = 5",
        u=user_id,
    )
    item = store.get(("prefs",), "food")
    assert item is not None and item.created_at.year == 1970
    assert store.list_namespaces() == [("prefs",)]


def test_facts_and_core_blocks_with_odd_stored_fields_read(
    mem: GraphMemory, client: TestClient, user_id: str
) -> None:
    mem.facts.set(user_id, "city", "Lyon")
    mem.core.set(user_id, "human", "likes dogs")
    cypher(
        mem,
        "MATCH (f:Fact) WHERE f.user_id = $u SET f.value = ['Lyon', 'Paris'], f.fact_type = 'belief',"
        " f.confidence = 'high'",
        u=user_id,
    )
    cypher(
        mem,
        "MATCH (m:Memory) WHERE m.user_id = $u AND m.core_label IS NOT NULL"
        " SET m.core_limit = 'big', m.core_description = ['x'], m.version = 'two'",
        u=user_id,
    )
    [fact] = mem.facts.history(user_id, "city")
    assert (fact.value, fact.fact_type, fact.confidence) == ('["Lyon", "Paris"]', "custom", 1.0)
    [block] = mem.core.list(user_id)
    assert (block.value, block.limit, block.description, block.version) == ("likes dogs", 2000, "", 1)
    context = mem.context("where do I live?", user_id=user_id)  # one read: facts, core blocks, history
    assert 'location: ["Lyon", "Paris"]' in context.text and "[human] likes dogs" in context.text
    for path in (f"/users/{user_id}/facts/history?key=city", f"/users/{user_id}/core"):
        response = client.get(path)
        assert response.status_code == 200, (path, response.text)


def test_timeline_events_with_odd_stored_fields_read(
    mem: GraphMemory, client: TestClient, user_id: str
) -> None:
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    cypher(mem, "MATCH (m:Memory) WHERE m.user_id = $u SET m.session_id = ['s1', 's2']", u=user_id)
    events = mem.temporal.timeline(user_id)
    assert events and events[0].session_id is None
    assert client.get(f"/users/{user_id}/timeline").status_code == 200


def test_an_api_key_with_an_odd_stored_hash_is_refused_not_a_crash(mem: GraphMemory) -> None:
    presented, record = auth.create_key(
        mem.runtime.store, "user", disposable(f"test-{uuid.uuid4()}"), label="[/]"
    )
    cypher(mem, "MATCH (k:ApiKey {id: $id}) SET k.hash = 'é' + k.hash, k.salt = 5", id=record["id"])
    try:
        assert auth.verify(mem.runtime.store, presented) is None
        with TestClient(create_app(mem, KEY), raise_server_exceptions=False) as c:
            assert c.get("/stats", headers={"X-API-Key": presented}).status_code == 401
        result = CliRunner().invoke(app, ["keys", "list"])
        assert result.exit_code == 0, result.output
    finally:
        auth.revoke_key(mem.runtime.store, record["id"])


def test_an_idempotency_record_with_odd_stored_ids_replays_or_says_why(
    mem: GraphMemory, user_id: str
) -> None:
    mem.facts.set(user_id, "city", "Lyon", idempotency_key="k1")
    cypher(mem, "MATCH (k:IdempotencyKey) WHERE k.user_id = $u SET k.result_ids = 'x'", u=user_id)
    from graphmem import FactNotFound

    with pytest.raises(FactNotFound):  # the stored result names no version: a clear error, not a crash
        mem.facts.set(user_id, "city", "Lyon", idempotency_key="k1")
    cypher(mem, "MATCH (k:IdempotencyKey) WHERE k.user_id = $u REMOVE k.result_ids", u=user_id)
    with pytest.raises(FactNotFound):
        mem.facts.set(user_id, "city", "Lyon", idempotency_key="k1")


def test_stats_with_odd_stored_values_read(mem: GraphMemory, client: TestClient, user_id: str) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    mem.recall("dog", user_id=user_id)
    mem.memories.feedback(m.id, user_id=user_id, useful=True)
    mem.jobs.run("decay", user_id=user_id)
    cypher(mem, "MATCH (m:Memory) WHERE m.user_id = $u SET m.status = ['a'], m.priority = [1]", u=user_id)
    cypher(
        mem,
        "MATCH (r:RecallEvent) WHERE r.user_id = $u SET r.latency_ms = 'slow', r.events = 'x',"
        " r.context_tokens_used = [1], r.memory_ids = 'one'",
        u=user_id,
    )
    cypher(mem, "MATCH (f:Feedback) WHERE f.user_id = $u SET f.useful = 'yes'", u=user_id)
    cypher(mem, "MATCH (j:JobRun) WHERE j.user_id = $u SET j.job = ['decay'], j.status = 3", u=user_id)
    figures = dashboard.memory_stats(mem.runtime, user_id)
    assert figures.by_status == {'["a"]': 1} and figures.value is not None
    assert figures.value.recalls[0].recalls == 1 and figures.value.recalls[0].latency_ms_mean is None
    assert figures.value.jobs == {'["decay"]': {"3": 1}}
    response = client.get("/stats", params={"user_id": user_id})
    assert response.status_code == 200, response.text
    result = CliRunner().invoke(app, ["stats", "--user", user_id])
    assert result.exit_code == 0, result.output


def test_a_recall_records_its_latency_for_the_value_panel(mem: GraphMemory, user_id: str) -> None:
    """Each recall event carries the search's latency; the weekly figures read it, skipping a value of
    another type written by hand."""
    mem.remember("I adopted a dog named Rex", user_id=user_id)
    for query in ("dog", "what is my dog called?", "Rex"):
        mem.recall(query, user_id=user_id)
    rows = mem.query("MATCH (r:RecallEvent) WHERE r.user_id = $u RETURN r.latency_ms AS ms", {"u": user_id})
    assert len(rows) == 3 and all(isinstance(r["ms"], float) and r["ms"] > 0 for r in rows)
    week = dashboard.value_stats(mem.runtime, user_id).recalls[-1]
    assert week.latency_ms_mean == pytest.approx(sum(r["ms"] for r in rows) / 3)
    assert week.latency_ms_p95 is not None and week.latency_ms_p95 <= max(r["ms"] for r in rows)
    cypher(mem, "MATCH (r:RecallEvent {latency_ms: $ms}) SET r.latency_ms = 'slow'", ms=rows[0]["ms"])
    kept = dashboard.value_stats(mem.runtime, user_id).recalls[-1]
    assert kept.recalls == 3 and kept.latency_ms_mean == pytest.approx((rows[1]["ms"] + rows[2]["ms"]) / 2)


@pytest.mark.parametrize("effects", ["inline", "deferred"])
def test_context_records_the_tokens_it_used_and_dropped(
    mem: GraphMemory, embedder: Any, user_id: str, effects: str
) -> None:
    """context() writes its recall's effects after the assembly, so the recall event carries the tokens the
    context used and dropped; the value panel sums them, and a week of plain recalls says "not recorded"."""
    settings = mem.runtime.settings.model_copy(update={"recall_effects": effects})
    with GraphMemory.connect(settings=settings, embedder=embedder) as other:
        for text in ("I adopted a dog named Rex", "Rex is a beagle and loves the park", "Rex is two"):
            other.remember(text, user_id=user_id)
        other.recall("dog", user_id=user_id)
        other.flush()
        assert dashboard.value_stats(mem.runtime, user_id).recalls[-1].context_tokens_used is None
        ctx = other.context("what is my dog called?", user_id=user_id, token_budget=45)
    dropped = sum(item.tokens for item in ctx.dropped)
    assert ctx.dropped and 0 < ctx.tokens <= 45, ctx.text
    rows = cypher(
        mem,
        "MATCH (r:RecallEvent) WHERE r.user_id = $u AND r.context_tokens_used IS NOT NULL"
        " RETURN r.context_tokens_used AS used, r.context_tokens_dropped AS dropped, r.memory_ids AS ids",
        u=user_id,
    )
    assert [(r["used"], r["dropped"]) for r in rows] == [(ctx.tokens, dropped)] and rows[0]["ids"]
    week = dashboard.value_stats(mem.runtime, user_id).recalls[-1]
    assert (week.recalls, week.context_tokens_used, week.context_tokens_dropped) == (2, ctx.tokens, dropped)
    shown = CliRunner().invoke(app, ["stats", "--user", user_id], env={"COLUMNS": "300"})
    assert shown.exit_code == 0 and f"{ctx.tokens} / {dropped}" in shown.output, shown.output


def test_stats_read_recall_events_and_feedback_of_odd_types(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    mem.recall("dog", user_id=user_id)
    mem.memories.feedback(m.id, user_id=user_id, useful=True)
    cypher(
        mem,
        "MATCH (r:RecallEvent) WHERE r.user_id = $u SET r.latency_ms = 'slow', r.events = 'x',"
        " r.context_tokens_dropped = 'none'",
        u=user_id,
    )
    cypher(mem, "MATCH (f:Feedback) WHERE f.user_id = $u SET f.useful = 'yes'", u=user_id)
    value = dashboard.memory_stats(mem.runtime, user_id).value
    assert value is not None and [(w.recalls, w.useful, w.latency_ms_mean) for w in value.recalls] == [
        (1, 0, None)
    ]


def test_adaptation_reads_odd_stored_feedback(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    mem.recall("what pet do I have", user_id=user_id)
    mem.memories.feedback(m.id, user_id=user_id, useful=True, query="my pet")
    cypher(
        mem, "MATCH (f:Feedback) WHERE f.user_id = $u SET f.query = ['my', 'pet'], f.useful = 'y'", u=user_id
    )
    result = mem.automation.evolution.adapt(user_id, now=datetime.now(UTC) + timedelta(seconds=1))
    assert result is not None


def test_the_explorer_reads_odd_stored_values(mem: GraphMemory, client: TestClient, user_id: str) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    cypher(mem, "MATCH (e:Entity) WHERE e.user_id = $u SET e.name = ['R', 'ex'], e.type = 1", u=user_id)
    response = client.get(f"/users/{user_id}/memories/{m.id}/graph")
    assert response.status_code == 200, response.text
    names = [n["text"] for n in response.json()["nodes"] if n["label"] == "Entity"]
    assert names and all(isinstance(n, str) for n in names)


def test_the_explorer_reads_edges_whose_ends_have_odd_ids(
    mem: GraphMemory, client: TestClient, user_id: str
) -> None:
    m = mem.remember("I adopted a dog named Rex", user_id=user_id)
    number = uuid.uuid4().int % 10**12  # entity ids are unique across tenants
    cypher(
        mem,
        "MATCH (x:Memory {id: $id}) CREATE (x)-[:ENTITY]->(:Entity {id: $n, user_id: $u, name: 'Odd'}), "
        "(x)-[:ENTITY]->(:Entity {user_id: $u, name: 'No id'})",
        id=m.id,
        u=user_id,
        n=number,
    )
    response = client.get(f"/users/{user_id}/memories/{m.id}/graph")
    assert response.status_code == 200, response.text
    graph = response.json()
    assert str(number) in {n["id"] for n in graph["nodes"]}
    assert {"src": m.id, "dst": str(number), "type": "ENTITY", "view": "entity"} in graph["edges"]
    assert all(isinstance(e["src"], str) and isinstance(e["dst"], str) for e in graph["edges"])


def test_recall_events_of_odd_types_do_not_fail_compaction_or_promotion(
    mem: GraphMemory, user_id: str
) -> None:
    """Hand-written RecallEvent nodes of the wrong types (rollup as text, ids as text or numbers, a list for a
    session, a number for a context, entries that are not text) are skipped or read as text: the jobs that
    fold and count them (consolidate's compaction, promote) still succeed, and graphmem's own events count."""
    m = mem.remember("I adopted a beagle called Rex", user_id=user_id)
    mem.recall("what pet do I have", user_id=user_id)
    old = datetime.now(UTC) - timedelta(days=30)
    odd = [
        {"rollup": "yes", "memory_ids": "not a list", "session_id": ["a", "b"], "context": 5},
        {"memory_ids": [7, 8], "session_id": 3, "intent": ["x"]},
        {"memory_ids": [m.id], "session_id": ["a"], "context": 2.5},
        {"rollup": True, "entries": [1, 2], "day": "today"},
    ]
    for props in odd:
        cypher(
            mem,
            "CREATE (e:RecallEvent {id: randomUUID(), user_id: $u, at: $at}) SET e += $props",
            u=user_id,
            at=old,
            props=props,
        )
    later = datetime.now(UTC) + timedelta(days=1)
    for job in ("consolidate", "promote"):
        run = mem.jobs.run(job, user_id=user_id, now=later)
        assert run.status == "success", run.error
    rollups = cypher(
        mem,
        "MATCH (r:RecallEvent {user_id: $u, rollup: true}) WHERE r.entries IS :: LIST<STRING NOT NULL> "
        "RETURN r.entries AS entries",
        u=user_id,
    )
    assert rollups and any(e.endswith(m.id) for r in rollups for e in r["entries"])


MISTYPED = [  # one per memory: times, counts and decay inputs of the wrong type, written by hand
    ("m.recorded_at", "'yesterday'"),
    ("m.last_accessed_at", "'soon'"),
    ("m.strength_updated_at", "42"),
    ("m.access_count", "'many'"),
    ("m.access_count", "-5"),
    ("m.emotion", "'sad'"),
    ("m.version", "'v2'"),
    ("m.strength_rate", "'fast'"),
    ("m.retention_scale", "'big'"),
    ("m.importance", "0.0 / 0.0"),
    ("m.session_id", "[1, 2]"),
    ("m.embedding", "[1.0, 2.0]"),
    ("m.context_embedding", "'not a vector'"),
    ("m.event_start", "'last week'"),
    ("m.asked", "[1, 2]"),
    ("m.confirmed", "'yes'"),
    ("m.open_conflicts", "'some'"),
]


def test_mistyped_times_counts_and_weights_fail_no_read_and_no_job(mem: GraphMemory, user_id: str) -> None:
    """Values a type check would refuse, set with the Cypher kit or the Browser: recall (which reinforces),
    audits, context, the preload, snapshots and the jobs that read them still answer, each reading the value
    as missing (the pure specifications, graphmem.model.anchors and edge_weights, do the same)."""
    memories = mem.add_messages(
        [f"I like hiking in the Alps, trip number {i}" for i in range(len(MISTYPED))],
        user_id=user_id,
        session_id="s",
    )
    for memory, (prop, expression) in zip(memories, MISTYPED, strict=True):
        mem.runtime.store.run_statement(
            f"MATCH (m:Memory {{id: $id}}) SET {prop} = {expression}", {"id": memory.id}
        )
    edges = mem.runtime.store.run_statement(
        "MATCH (m:Memory {user_id: $u})-[r]-() WITH DISTINCT r "
        "SET r.weight = CASE type(r) WHEN 'ENTITY' THEN 0.0 / 0.0 ELSE 'heavy' END, r.similarity = 'x', "
        "r.weight_updated_at = 'x' RETURN count(r) AS n",
        {"u": user_id},
    )
    assert edges[0]["n"] > 0
    now = datetime.now(UTC) + timedelta(seconds=1)
    hits = mem.recall("hiking in the Alps", user_id=user_id, k=20)
    assert len(hits) == len(MISTYPED)
    for memory in memories[-3:]:  # feedback reads the asked key and counts as they are
        mem.memories.feedback(memory.id, user_id=user_id, useful=True, query="Where do I hike?")
    hits = mem.recall("hiking in the Alps", user_id=user_id, k=20)
    assert len(hits) == len(MISTYPED)
    assert all(ops.hit_json(h, explain=True)["explanation"] for h in hits)  # metamemory in the explanation
    assert mem.recall("hiking in the Alps", user_id=user_id, as_of=now, reinforce=False)
    mem.recall("hiking in the Alps", user_id=user_id, known_at=now, reinforce=False)
    mem.context("hiking", user_id=user_id).model_dump_json()
    assert len(mem.memories.proactive(user_id, k=20)) == len(MISTYPED)
    mem.temporal.snapshot(user_id, as_of=now).model_dump_json()
    for name, at in [
        ("decay", None),
        ("decay", now + timedelta(days=400)),
        ("consolidate", None),
        ("topics", None),
    ]:
        run = mem.jobs.run(name, user_id=user_id, now=at)
        assert run.status == "success", (name, run.error)
    assert len(mem.recall("hiking in the Alps", user_id=user_id, k=20, reinforce=False)) >= 1
    # a batch large enough to compare in process reads the hand-replaced embedding too
    batch = mem.add_messages([f"Hiking trip plan {i}" for i in range(120)], user_id=user_id, session_id="t")
    assert len(batch) == 120


@pytest.mark.parametrize(
    "expression",
    [
        "f.version = 'v2'",
        "f.value = [1, 2]",
        "f.valid_from = 'last spring'",
        "f.source = 'oracle'",
        "f.planned_at = 'soon'",
        "f.planned_at = f.valid_from",  # a plan made as it started: nothing is early for it
        "f.planned_at = localdatetime()",  # a time without a zone, read as UTC
        "f.valid_from = localdatetime() - duration('P1D')",
        "f.revoked_at = 'soon'",
        "f.revoked_at = localdatetime()",  # of another type than a zoned time: no revocation
    ],
)
def test_a_mistyped_current_fact_is_still_read_superseded_and_retracted(
    mem: GraphMemory, user_id: str, expression: str
) -> None:
    mem.facts.set(user_id, "city", "Leeds")
    mem.runtime.store.run_statement(
        f"MATCH (f:Fact {{user_id: $u}}) WHERE f.expired_at IS NULL SET {expression}", {"u": user_id}
    )
    mem.facts.get(user_id, "city")
    mem.facts.history(user_id, "city")
    mem.facts.set(user_id, "city", "Manchester")
    current = mem.facts.get(user_id, "city")
    assert current is not None and current.value == "Manchester"
    mem.facts.retract(user_id, "city", valid_to=datetime.now(UTC) + timedelta(days=1))


@pytest.mark.parametrize(
    "expression",
    [
        "'x'",
        "['a', 'b']",
        "[1.0, 2.0]",
        "[i IN range(1, 384) | 0.0 / 0.0]",
        "[i IN range(1, 384) | 1.0e300]",
        "[i IN range(1, 384) | 0.0]",
    ],
)
def test_a_vector_replaced_by_hand_fails_no_vector_work_of_its_tenant(
    mem: GraphMemory, user_id: str, expression: str
) -> None:
    """A memory's or an entity's embedding replaced by hand is left out of the vector work it would fail
    (a GDS projection, the vector index, a cosine in recall, formation or consolidation) instead of failing
    it for the whole tenant."""
    first = mem.add_messages(
        [f"My sister Ana plays cello in Lisbon, concert {i}" for i in range(4)],
        user_id=user_id,
        session_id="s",
    )
    cypher(mem, f"MATCH (m:Memory {{id: $id}}) SET m.embedding = {expression}", id=first[0].id)
    cypher(mem, f"MATCH (e:Entity) WHERE e.user_id = $u SET e.embedding = {expression}", u=user_id)
    run = mem.jobs.run("associate", user_id=user_id)  # most memories new: the full pass
    assert run.status == "success", run.error
    assert run.counts["edges"] > 0  # the others are linked
    later = mem.add_messages(["Anna from Lisboa visited my sister Ana"], user_id=user_id, session_id="t")
    cypher(mem, f"MATCH (m:Memory {{id: $id}}) SET m.embedding = {expression}", id=later[0].id)
    mem.add_messages(["Ana plays cello in Lisbon again"], user_id=user_id, session_id="t")
    run = mem.jobs.run("associate", user_id=user_id)  # a few new ones: the incremental pass (vector index)
    assert run.status == "success", run.error
    assert (run.counts["method"], run.counts["pending"], run.counts["memories"]) == ("vector_index", 2, 1), (
        run.counts
    )  # the replaced one counts as pending but is left out
    hits = mem.recall("Ana plays cello", user_id=user_id, k=10)  # the exact scan, reinforcing
    assert len(hits) >= 3
    for at in (None, datetime.now(UTC) + timedelta(days=30)):  # duplicates compare vectors; summaries average
        dry = mem.jobs.run("consolidate", user_id=user_id, now=at, dry_run=True)  # one transaction: no rerun
        assert dry.status == "dry_run", dry.error
        run = mem.jobs.run("consolidate", user_id=user_id, now=at)
        assert run.status == "success", run.error


@pytest.mark.parametrize("which", ["current", "previous"])
@pytest.mark.parametrize("expression", ["'two'", "null", "2.5", "-1"])
def test_a_core_block_version_overwritten_by_hand_still_reads_and_edits(
    mem: GraphMemory, user_id: str, which: str, expression: str
) -> None:
    mem.core.set(user_id, "human", "likes dogs")
    mem.core.append(user_id, "human", "lives in Lyon")
    expired = "IS NOT NULL" if which == "previous" else "IS NULL"
    cypher(
        mem,
        f"MATCH (m:CoreBlock) WHERE m.user_id = $u AND m.expired_at {expired} SET m.version = {expression}",
        u=user_id,
    )
    assert [b.value for b in mem.core.list(user_id)] == ["likes dogs\nlives in Lyon"]
    mem.core.append(user_id, "human", "plays chess")
    mem.core.replace(user_id, "human", "chess", "cello")
    mem.core.set(user_id, "human", "likes cats")
    assert [b.value for b in mem.core.list(user_id)] == ["likes cats"]
    assert len(mem.core.history(user_id, "human")) == 5


def test_listing_and_filtered_recall_read_odd_stored_values(mem: GraphMemory, user_id: str) -> None:
    """Tags, metadata, type and times of another shape than graphmem writes (by hand) never fail a listing
    or a filtered recall: such a memory is listed, and passes no filter on the odd field."""
    odd = mem.remember("My bike is a red Cannondale", user_id=user_id, tags=["bike"], metadata={"k": 1})
    mem.remember("My car is a blue Corolla", user_id=user_id, tags=["car"], metadata={"k": 1})
    cypher(
        mem,
        "MATCH (m:Memory {id: $id}) SET m.tags = 'bike', m.metadata = '{not json',"
        " m.memory_type = ['episodic'], m.occurred_at = 'yesterday'",
        id=odd.id,
    )
    assert {m.id for m in mem.memories.list(user_id)} >= {odd.id}
    # no place in the order to page from: refused, not a 500
    with pytest.raises(ValidationError, match="no date-time occurred_at"):
        mem.memories.list(user_id, after=odd.id)
    assert mem.memories.get(odd.id, user_id=user_id).tags == ()
    for filters in ({"tags": ["bike"]}, {"metadata": {"k": 1}}, {"memory_type": "episodic"}):
        hits = mem.recall("what bike do I ride?", user_id=user_id, reinforce=False, filters=filters)
        assert odd.id not in {h.memory.id for h in hits}, filters
