"""The maintenance jobs on the real server, each test in its own tenant, jobs scoped to that tenant."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import by_time_alone, disposable

from graphmem import GraphMemory, OnnxEmbedder, Settings
from graphmem.automation.config import DUE_MARKS
from graphmem.errors import StoreError
from graphmem.model import dynamics as d
from graphmem.model import knn
from graphmem.model.anchors import NEVER
from graphmem.retrieval.effects import effects_params
from graphmem.store.migrations import server_filters_vectors
from graphmem.store.queries import expand, variant
from graphmem.temporal import migrate

P = d.DynamicsParams()


@pytest.fixture()
def dyn(server: Any, embedder: OnnxEmbedder) -> Iterator[GraphMemory]:
    """A GraphMemory with its own automation config id: no test changes the shared configuration."""
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"))
    with GraphMemory.connect(settings=settings, embedder=embedder) as memory:
        memory.init()
        yield by_time_alone(memory)


def write(mem: GraphMemory, cypher: str, **params: Any) -> list[dict[str, Any]]:
    return mem.runtime.store.run_statement(cypher, params)


NODE_AT = expand(
    "MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null, "
    "retention: {{retention_now(m, $now)}}, strength: {{strength_now(m, $now)}}} AS m"
)


def node(mem: GraphMemory, memory_id: str, now: datetime | None = None) -> dict[str, Any]:
    """A memory's stored properties; with ``now``, its retention and strength as every reader derives them
    then (graphmem.model.anchors)."""
    if now is None:
        rows = mem.query("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", {"id": memory_id})
    else:
        rows = mem.query(NODE_AT, {"id": memory_id, "now": now})
    return rows[0]["m"] if rows else {}


def related(mem: GraphMemory, memory_id: str) -> tuple[int, float]:
    row = mem.query(
        "MATCH (m:Memory {id: $id}) OPTIONAL MATCH (m)-[r:RELATED_TO]-(:Memory) WHERE r.expired_at IS NULL "
        "RETURN count(r) AS n, coalesce(avg(r.weight), 0.0) AS w",
        {"id": memory_id},
    )[0]
    return int(row["n"]), float(row["w"])


def days(a: datetime, b: datetime) -> float:
    return (b - a).total_seconds() / 86400


def test_decay_matches_the_retention_and_strength_formulas(dyn: GraphMemory, user_id: str) -> None:
    cfg = dyn.automation.get_config()
    dynamics = cfg.dynamics.model_copy(update={"store_base_activation": True})
    dyn.automation.set_config(cfg.model_copy(update={"dynamics": dynamics}))
    cases = [
        ("The quarterly report is due every March", "semantic", "P1", 3, 5.0),
        ("I prefer window seats on long flights", "preference", "P2", 10, 30.0),
        ("We had pasta for dinner on Tuesday", "episodic", "P3", 0, None),
    ]
    made = []
    for text, kind, prio, uses, accessed_after in cases:
        m = dyn.remember(text, user_id=user_id, memory_type=kind, priority=prio)
        assert m.created_at is not None
        last = None if accessed_after is None else m.created_at + timedelta(days=accessed_after)
        write(
            dyn,
            "MATCH (m:Memory {id: $id}) SET m.access_count = $n, m.last_accessed_at = $t",
            id=m.id,
            n=uses,
            t=last,
        )
        made.append((m, kind, prio, uses, last))
    now: datetime = made[0][0].created_at + timedelta(days=40)  # type: ignore[operator,assignment]
    run = dyn.jobs.run("decay", user_id=user_id, now=now)
    assert run.status == "success" and run.counts["memories"] == 3
    for m, kind, prio, uses, last in made:
        stored = node(dyn, m.id, now)
        n_rel, assoc = related(dyn, m.id)
        expected = d.retention(
            memory_type=kind,
            days_since_access=days(last or m.created_at, now),
            days_since_creation=days(m.created_at, now),
            access_count=uses,
            related_count=n_rel,
            params=P,
            priority=prio,
        )
        assert stored["retention"] == pytest.approx(expected, rel=1e-6), kind
        since = max(last or m.created_at, m.created_at)
        rate = d.effective_rate(P.strength_decay[prio], assoc)
        assert stored["strength"] == pytest.approx(
            d.decay_strength(1.0, days(since, now), rate, P.strength_floor[prio]), rel=1e-5
        )  # association weights are stored as float32-rounded cosines: 1e-6 is below their precision
        if uses:
            assert stored["base_activation"] == pytest.approx(
                d.actr_base_level_approx(uses, days(m.created_at, now))
            )
    # idempotent: a rerun at the same clock changes nothing
    before = {m.id: node(dyn, m.id) for m, *_ in made}
    dyn.jobs.run("decay", user_id=user_id, now=now)
    assert {m.id: node(dyn, m.id) for m, *_ in made} == before
    # without the ACT-R option the base level is not kept (one write less per memory and run)
    dyn.automation.set_config(dyn.automation.get_config().model_copy(update={"dynamics": P}))
    dyn.jobs.run("decay", user_id=user_id, now=now + timedelta(days=1))
    assert all(node(dyn, m.id).get("base_activation") is None for m, *_ in made)


def test_decay_composes_and_writes_only_what_moved(dyn: GraphMemory, user_id: str) -> None:
    """Strength decayed day by day equals one decay over all the days; edge weights fade from their base;
    a P0 memory (rate 0) keeps its strength anchor, so nothing about it is rewritten."""
    p1 = dyn.remember("The team standup is at nine thirty", user_id=user_id, priority="P1")
    p0 = dyn.remember("My blood type is O negative", user_id=user_id, priority="P0")
    assert p1.created_at is not None
    write(dyn, "MATCH (m:Memory {user_id: $u})-[r:RELATED_TO]-() DELETE r", u=user_id)
    write(
        dyn,
        "MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) "
        "CREATE (a)-[:RELATED_TO {weight: 0.8, recorded_at: $t}]->(b)",
        a=p1.id,
        b=p0.id,
        t=p1.created_at,
    )
    migrate.mark_edges_due(dyn.runtime)  # an older graphmem's edge: init() marks it due for the decay job
    runs = [
        dyn.jobs.run("decay", user_id=user_id, now=p1.created_at + timedelta(days=day))
        for day in range(1, 11)
    ]
    ten = p1.created_at + timedelta(days=10)
    edge = dyn.query(
        expand(
            "MATCH (:Memory {id: $a})-[r:RELATED_TO]->() "
            "RETURN {{edge_weight_now(r, $now)}} AS w, r.weight_base AS b, r.weight AS stored"
        ),
        {"a": p1.id, "now": ten},
    )[0]
    assert edge["b"] == pytest.approx(0.8) and edge["w"] == pytest.approx(0.8 * (1 - P.edge_decay) ** 10)
    assert edge["stored"] == pytest.approx(0.8)  # derived at read time: the stored weight stays at its anchor
    assert [r.counts["edges"] for r in runs] == [1] + [0] * 9  # evaluated once, never rewritten nightly
    # the association slows decay by the edge's base weight (stable: edge decay does not make memories due)
    rate = d.effective_rate(P.strength_decay["P1"], 0.8)
    assert node(dyn, p1.id, ten)["strength"] == pytest.approx(
        d.decay_strength(1.0, 10.0, rate, 0.5), rel=1e-5
    )
    # the first run writes the coefficients; later runs write only status changes, nothing nightly
    assert runs[0].counts["memories"] == 2
    assert all(r.counts["memories"] == r.counts["status_changed"] for r in runs[1:])
    assert node(dyn, p1.id)["strength"] == 1.0  # the anchor: never rewritten
    assert node(dyn, p0.id, ten)["strength"] == pytest.approx(1.0)
    assert node(dyn, p0.id)["decay_due"] == NEVER  # P0: no status change ahead, never evaluated again


def test_a_decay_parameter_change_reaches_memories_not_yet_due(dyn: GraphMemory, user_id: str) -> None:
    """A memory whose next status change lies weeks ahead is not evaluated before then; a configuration
    change of a rate the decay job reads makes it due, so the next run gives it the new rate (before, it
    kept the old coefficients until its old due date: a dormant or P0 memory for ever). A change of nothing
    decay reads (a job's flag) leaves it alone."""
    m = dyn.remember("The team standup is at nine thirty", user_id=user_id, priority="P1")
    assert m.created_at is not None
    t = m.created_at
    dyn.jobs.run("decay", user_id=user_id, now=t + timedelta(hours=1))
    first = node(dyn, m.id)
    assert first["status"] == "active" and first["decay_due"] > t + timedelta(days=7)
    cfg = dyn.automation.get_config()
    dyn.automation.set_config(cfg.with_job("promote", enabled=not cfg.jobs["promote"].enabled))
    assert node(dyn, m.id)["decay_due"] == first["decay_due"]
    cfg = dyn.automation.get_config()
    faster = cfg.dynamics.model_copy(
        update={"time_decay": {k: 10 * v for k, v in cfg.dynamics.time_decay.items()}}
    )
    dyn.automation.set_config(cfg.model_copy(update={"dynamics": faster}))
    assert node(dyn, m.id)["decay_due"] <= t  # due now
    run = dyn.jobs.run("decay", user_id=user_id, now=t + timedelta(hours=2))
    after = node(dyn, m.id)
    assert run.counts["memories"] == 1
    assert after["retention_rate"] == pytest.approx(10 * first["retention_rate"])
    assert after["decay_due"] < first["decay_due"]  # its next status change comes sooner


def test_status_moves_active_weak_dormant_forgotten(dyn: GraphMemory, user_id: str) -> None:
    m = dyn.remember("Parked the car on level three", user_id=user_id, priority="P3")
    assert m.created_at is not None
    seen = []
    for day in (3, 9, 14, 40):  # strength 0.9^day: weak below 0.5, dormant below 0.3, forgotten below 0.2
        now = m.created_at + timedelta(days=day)
        dyn.jobs.run("decay", user_id=user_id, now=now)
        dyn.jobs.run("forget", user_id=user_id, now=now)
        seen.append(node(dyn, m.id)["status"])
    assert seen == ["active", "weak", "dormant", "forgotten"]
    # strength followed the closed form across the four incremental runs
    assert node(dyn, m.id, now)["strength"] == pytest.approx(0.9**40, rel=1e-6)


def test_soft_and_hard_forgetting(dyn: GraphMemory, user_id: str) -> None:
    p3 = dyn.remember("The vending machine was out of crisps", user_id=user_id, priority="P3")
    p0 = dyn.remember("My daughter is allergic to peanuts", user_id=user_id, priority="P0")
    other = dyn.remember("Budget meeting moved to Friday", user_id=user_id, priority="P1")
    write(
        dyn,
        "MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) CREATE (a)-[:RELATED_TO {weight: 0.01}]->(b)",
        a=p0.id,
        b=other.id,
    )
    migrate.mark_edges_due(dyn.runtime)  # an older graphmem's edge: init() marks it due for the decay job
    assert p3.created_at is not None
    now = p3.created_at + timedelta(days=40)
    dyn.jobs.run("decay", user_id=user_id, now=now)
    run = dyn.jobs.run("forget", user_id=user_id, now=now)
    assert run.counts["soft_forgotten"] == 1 and run.counts["edges_removed"] >= 1
    assert node(dyn, p3.id)["status"] == "forgotten"
    assert node(dyn, p0.id)["status"] != "forgotten"  # P0 is never forgotten automatically
    assert dyn.recall("vending machine crisps", user_id=user_id, k=5, reinforce=False) == [] or all(
        h.memory.id != p3.id
        for h in dyn.recall("vending machine crisps", user_id=user_id, k=5, reinforce=False)
    )
    # restorable ...
    assert dyn.jobs.restore([p3.id], user_id=user_id, now=now) == [p3.id]
    assert node(dyn, p3.id)["status"] in ("active", "weak", "dormant")
    # ... and, once forgotten again, hard-deleted after the grace period
    later = now + timedelta(days=25)
    dyn.jobs.run("decay", user_id=user_id, now=later)
    dyn.jobs.run("forget", user_id=user_id, now=later)
    assert node(dyn, p3.id)["status"] == "forgotten"
    run = dyn.jobs.run("forget", user_id=user_id, now=later + timedelta(days=P.hard_delete_grace_days + 1))
    assert run.counts["hard_deleted"] >= 1 and node(dyn, p3.id) == {}
    assert node(dyn, p0.id) != {}


def test_capacity_forgetting_removes_the_weakest(dyn: GraphMemory, user_id: str) -> None:
    cfg = dyn.automation.get_config()
    dyn.automation.set_config(
        cfg.model_copy(update={"dynamics": cfg.dynamics.model_copy(update={"capacity_per_user": 2})})
    )
    keep_p0 = dyn.remember("Emergency contact is my sister Ana", user_id=user_id, priority="P0")
    strong = dyn.remember("I run the Berlin marathon every year", user_id=user_id, priority="P2")
    weak = dyn.remember("Saw a red bicycle this morning", user_id=user_id, priority="P3")
    write(dyn, "MATCH (m:Memory {id: $id}) SET m.strength = 3.0, m.access_count = 5", id=strong.id)
    run = dyn.jobs.run("forget", user_id=user_id)
    assert run.counts["capacity_forgotten"] == 1
    assert (
        node(dyn, weak.id)["status"] == "forgotten" and node(dyn, weak.id)["forgotten_reason"] == "capacity"
    )
    assert node(dyn, strong.id)["status"] == "active" and node(dyn, keep_p0.id)["status"] == "active"


def test_consolidate_merges_near_duplicates(dyn: GraphMemory, user_id: str) -> None:
    a = dyn.remember("My sister Clara lives in Toronto with her two cats", user_id=user_id)
    # formation deduplicates at write time; a duplicate that slipped through (e.g. an import) is made by hand
    row = write(
        dyn,
        "MATCH (a:Memory {id: $id}) CREATE (b:Memory) "
        "SET b = a {.*, id: randomUUID(), content: a.content + '.', "
        "created_at: a.created_at + duration('PT1S'), access_count: 2} RETURN b.id AS id",
        id=a.id,
    )
    assert a.created_at is not None
    b = a.model_copy(update={"id": row[0]["id"], "created_at": a.created_at + timedelta(seconds=1)})
    dyn.jobs.run("associate", user_id=user_id)
    run = dyn.jobs.run("consolidate", user_id=user_id)
    assert run.counts["merged"] == 1
    older, newer = (a, b) if (a.created_at, a.id) < (b.created_at, b.id) else (b, a)
    assert node(dyn, newer.id)["status"] == "superseded"
    survivor = node(dyn, older.id)
    assert survivor["merged_from"] == [newer.id] and survivor["access_count"] >= 2
    edge = dyn.query(
        "MATCH (:Memory {id: $b})-[r:MERGED_INTO]->(:Memory {id: $a}) RETURN r.similarity AS s",
        {"a": older.id, "b": newer.id},
    )
    assert edge and edge[0]["s"] >= P.duplicate_similarity
    assert dyn.jobs.run("consolidate", user_id=user_id).counts["merged"] == 0  # idempotent


VIEW_EDGES = "ENTITY|FOLLOWS|RELATED_TO|CAUSES|IN_SESSION"


def test_a_merge_moves_the_view_edges_onto_the_survivor(dyn: GraphMemory, user_id: str) -> None:
    first = dyn.add_messages(
        [{"role": "user", "content": "We adopted a puppy named Biscuit from the shelter"}],
        user_id=user_id,
        session_id="s1",
    )[0]
    later = dyn.add_messages(
        [
            {"role": "user", "content": "Biscuit chewed my running shoes"},
            {"role": "user", "content": "so I ordered a new pair of shoes online"},
        ],
        user_id=user_id,
        session_id="s2",
    )
    # a duplicate of the first memory that slipped through, wired into session s2 like a real turn
    dup = write(
        dyn,
        "MATCH (a:Memory {id: $a}), (x:Memory {id: $x}), (y:Memory {id: $y}) "
        "CREATE (b:Memory) SET b = a {.*, id: randomUUID(), content: a.content + '!', session_id: 's2', "
        "created_at: a.created_at + duration('PT1S')} "
        "CREATE (x)-[:FOLLOWS {weight: 1.0, kind: 'session'}]->(b) "
        "CREATE (b)-[:FOLLOWS {weight: 1.0, kind: 'session'}]->(y) "
        "CREATE (b)-[:CAUSES {weight: 0.7, cue: 'so'}]->(y) "
        "WITH a, b MATCH (a)-[:ENTITY]->(e:Entity) CREATE (b)-[:ENTITY {name: e.name}]->(e) "
        "WITH DISTINCT b MATCH (:Memory {id: $y})-[:IN_SESSION]->(s) CREATE (b)-[:IN_SESSION]->(s) "
        "RETURN DISTINCT b.id AS id",
        a=first.id,
        x=later[0].id,
        y=later[1].id,
    )
    assert dup, "the test fixture did not find the entity or the session"
    b = dup[0]["id"]
    before = {
        r["t"]
        for r in dyn.query(f"MATCH (:Memory {{id: $b}})-[r:{VIEW_EDGES}]-() RETURN type(r) AS t", {"b": b})
    }
    assert before >= {"ENTITY", "FOLLOWS", "CAUSES", "IN_SESSION"}
    dyn.jobs.run("associate", user_id=user_id)
    run = dyn.jobs.run("consolidate", user_id=user_id)
    assert run.counts["merged"] == 1 and run.counts["edges_moved"] >= 5
    assert node(dyn, b)["status"] == "superseded" and node(dyn, b)["merged_into"] == first.id
    left = dyn.query(f"MATCH (:Memory {{id: $b}})-[r:{VIEW_EDGES}]-() RETURN count(r) AS n", {"b": b})
    assert left[0]["n"] == 0  # nothing hangs on the inactive copy ...
    moved = dyn.query(
        "MATCH (a:Memory {id: $a}) RETURN "
        "EXISTS { (:Memory {id: $x})-[:FOLLOWS]->(a) } AS follows_in, "
        "EXISTS { (a)-[:FOLLOWS]->(:Memory {id: $y}) } AS follows_out, "
        "EXISTS { (a)-[:CAUSES {cue: 'so'}]->(:Memory {id: $y}) } AS causes, "
        "EXISTS { (a)-[:IN_SESSION]->()<-[:IN_SESSION]-(:Memory {id: $y}) } AS session, "
        "COUNT { (a)-[:ENTITY]->() } AS entities, "
        "COUNT { (a)-[r:FOLLOWS]->(:Memory {id: $y}) WHERE r.moved_from = $b } AS provenance",
        {"a": first.id, "b": b, "x": later[0].id, "y": later[1].id},
    )[0]
    assert moved == {**moved, "follows_in": True, "follows_out": True, "causes": True, "session": True}
    assert moved["entities"] >= 1 and moved["provenance"] == 1  # ... it moved to the survivor
    assert (
        dyn.query("MATCH (:Memory {id: $b})-[:MERGED_INTO]->(a) RETURN a.id AS a", {"b": b})[0]["a"]
        == first.id
    )
    assert dyn.jobs.run("consolidate", user_id=user_id).counts["edges_moved"] == 0  # idempotent


def test_consolidation_detects_a_superseded_fact_and_forgets_the_outdated_memory(
    dyn: GraphMemory, user_id: str
) -> None:
    old = dyn.remember("I live in Boston", user_id=user_id, session_id="a")
    new = dyn.remember("I live in Seattle now", user_id=user_id, session_id="b")
    pinned = dyn.remember("My favourite colour is green", user_id=user_id, priority="P0", session_id="a")
    pinned_new = dyn.remember("My favourite colour is blue", user_id=user_id, session_id="b")
    facts = dyn.query(
        "MATCH (n:Fact)-[:SUPERSEDES]->(o:Fact) WHERE n.user_id = $u RETURN o.value AS old, n.value AS new",
        {"u": user_id},
    )
    assert len(facts) == 2, f"the fact layer should have superseded both values: {facts}"
    run = dyn.jobs.run("consolidate", user_id=user_id)
    assert run.counts["conflicts_detected"] == 2 and run.counts["resolved"] == 2
    assert node(dyn, old.id)["status"] == "forgotten" and node(dyn, old.id)["forgotten_reason"] == "outdated"
    assert node(dyn, old.id)["outdated_by"] == new.id
    assert node(dyn, new.id)["status"] == "active"
    assert node(dyn, pinned.id)["status"] == "conflicted"  # P0 is marked, never forgotten
    assert node(dyn, pinned_new.id)["status"] == "active"
    edge = dyn.query(
        "MATCH (:Memory {id: $o})-[c:CONFLICTS_WITH]->(:Memory {id: $n}) RETURN c.reason AS reason, "
        "c.detected_by AS by, c.resolution AS resolution",
        {"o": old.id, "n": new.id},
    )
    assert edge == [{"reason": "fact_superseded", "by": "consolidate", "resolution": "newer_wins"}]
    again = dyn.jobs.run("consolidate", user_id=user_id)
    assert again.counts["conflicts_detected"] == 0 and again.counts["resolved"] == 0


def test_consolidate_summarises_an_old_session(dyn: GraphMemory, user_id: str) -> None:
    texts = [
        "We landed in Lisbon around noon",
        "The hotel overlooked the Tagus river",
        "Dinner was grilled sardines in Alfama",
        "On day two we took the tram to Belem",
        "The pastel de nata queue was very long",
    ]
    members = [dyn.remember(t, user_id=user_id, session_id="lisbon-trip") for t in texts]
    assert members[0].created_at is not None
    now = members[0].created_at + timedelta(days=10)
    run = dyn.jobs.run("consolidate", user_id=user_id, now=now)
    assert run.counts["summaries"] == 1
    rows = dyn.query(
        "MATCH (s:Memory {user_id: $u, is_summary: true})-[:SUMMARIZES]->(m:Memory) "
        "RETURN s.content AS content, s.layer AS layer, s.embedding IS NOT NULL AS has_vec, "
        "collect(m.id) AS ids",
        {"u": user_id},
    )
    assert len(rows) == 1
    live = {m.id for m in members if node(dyn, m.id)["status"] != "superseded"}
    assert set(rows[0]["ids"]) == live and rows[0]["layer"] == "long_term" and rows[0]["has_vec"]
    assert "Lisbon" in rows[0]["content"]
    assert dyn.jobs.run("consolidate", user_id=user_id, now=now).counts["summaries"] == 0


def _topic_memories(mem: GraphMemory, user_id: str) -> list[str]:
    texts = [
        "I play tennis every Saturday morning",
        "My tennis coach says my backhand improved",
        "I bought a new tennis racket last week",
        "Quarterly taxes are due in April",
        "The accountant needs the tax receipts",
    ]
    return [mem.remember(t, user_id=user_id).id for t in texts]


def _linked(mem: GraphMemory, user_id: str, method: str) -> dict[str, Any]:
    return mem.query(
        "MATCH (a:Memory {user_id: $u})-[r:RELATED_TO {method: $method}]-(b:Memory) "
        "RETURN collect(DISTINCT b.user_id) AS users, collect(DISTINCT a.decay_due.epochSeconds) AS due, "
        "collect(DISTINCT [a.content, b.content, r.similarity]) AS pairs",
        {"u": user_id, "method": method},
    )[0]


def _topic_pairs(linked: dict[str, Any]) -> set[frozenset[str]]:
    return {frozenset(p[:2]) for p in linked["pairs"]}


def test_associate_first_pass_links_each_memory_to_its_nearest_in_process(
    dyn: GraphMemory, user_id: str
) -> None:
    ids = _topic_memories(dyn, user_id)
    dyn.jobs.run("decay", user_id=user_id)  # evaluated: each memory's next decay lies ahead
    run = dyn.jobs.run("associate", user_id=user_id)
    assert run.status == "success" and run.counts["method"] == "knn" and run.counts["edges"] > 0
    linked = _linked(dyn, user_id, "knn")
    assert linked["users"] == [user_id]
    assert linked["due"] == [0]  # association is a decay input: each linked memory is due (associate_mark)
    # the pairs are the exact ones: each memory's k nearest above the threshold (graphmem.model.knn)
    rows = dyn.query(
        "MATCH (m:Memory) WHERE m.id IN $ids RETURN m.content AS c, m.embedding AS e", {"ids": ids}
    )
    cfg = dyn.automation.get_config().dynamics
    expected = {
        frozenset((rows[a]["c"], rows[b]["c"]))
        for a, b, _ in knn.nearest_pairs([r["e"] for r in rows], cfg.associate_k, cfg.associate_similarity)
    }
    assert _topic_pairs(linked) == expected
    assert all(s >= cfg.associate_similarity for *_, s in linked["pairs"])
    pending = dyn.query(
        "MATCH (m:Memory {user_id: $u}) WHERE m.associated_at IS NULL RETURN count(m) AS n", {"u": user_id}
    )
    assert pending[0]["n"] == 0


def test_associate_pairs_never_give_a_pair_two_edges(dyn: GraphMemory, user_id: str) -> None:
    """Each pair written three times, one row per inner transaction, two transactions at once (the copies
    of a pair meet while the first is uncommitted, as another writer's MERGE of the same pair would), in
    both directions and over the edges formation made: one edge per pair, the one that existed first
    reweighted. The writer's MERGE locks both memories before it looks again; a check-then-CREATE, 30 %
    faster on a 100,000-memory tenant, doubled pairs here in each of four runs (CREATE takes no such
    locks)."""
    _topic_memories(dyn, user_id)
    rows = dyn.query("MATCH (m:Memory {user_id: $u}) RETURN elementId(m) AS e ORDER BY m.id", {"u": user_id})
    elements = [r["e"] for r in rows]
    formed = dyn.query(
        "MATCH (a:Memory {user_id: $u})-[r:RELATED_TO]->(b:Memory) RETURN elementId(r) AS r", {"u": user_id}
    )
    assert formed, "formation linked some of the memories: their edges must be reweighted, not doubled"
    pairs = [[a, b, 0.9] for i, a in enumerate(elements) for b in elements[i + 1 :]]
    copies = [p if n % 2 else [p[1], p[0], p[2]] for p in pairs for n in range(3)]
    dyn.runtime.store.write_auto(
        variant("associate_write_pairs", filtered=server_filters_vectors(dyn.runtime)),
        pairs=copies,
        user_id=user_id,
        now=datetime.now(UTC),
        batch=1,
        concurrency=2,
    )
    edges = dyn.query(
        "MATCH (a:Memory {user_id: $u})-[r:RELATED_TO]-(b:Memory) WHERE elementId(a) < elementId(b) "
        "RETURN elementId(a) AS a, elementId(b) AS b, collect(elementId(r)) AS rs, collect(r.weight) AS w",
        {"u": user_id},
    )
    assert len(edges) == len(pairs)
    assert all(len(e["rs"]) == 1 and e["w"] == [0.9] for e in edges)
    kept = {r for e in edges for r in e["rs"]}
    assert {f["r"] for f in formed} <= kept  # formation's edges reweighted in place


def test_associate_uses_gds_knn_above_the_in_process_budget(dyn: GraphMemory, user_id: str) -> None:
    _topic_memories(dyn, user_id)
    assert dyn.automation.probe()["gds"], "the shared server has GDS"
    cfg = dyn.automation.get_config()
    budget = cfg.dynamics.model_copy(update={"associate_in_process_max": 2})
    dyn.automation.set_config(cfg.model_copy(update={"dynamics": budget}))
    dyn.jobs.run("decay", user_id=user_id)
    run = dyn.jobs.run("associate", user_id=user_id)
    assert run.status == "success" and run.counts["method"] == "gds_knn" and run.counts["edges"] > 0
    linked = _linked(dyn, user_id, "gds_knn")
    assert linked["users"] == [user_id] and linked["due"] == [0]


def test_associate_without_gds_links_in_process_then_through_the_vector_index(
    server: Any, embedder: OnnxEmbedder, user_id: str
) -> None:
    settings = Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}"), gds_enabled=False)
    with GraphMemory.connect(settings=settings, embedder=embedder) as mem:
        _topic_memories(mem, user_id)
        run = mem.jobs.run("associate", user_id=user_id)
        assert run.counts["method"] == "knn" and run.counts["edges"] > 0
        mem.remember("My tennis shoes need new laces", user_id=user_id)
        run = mem.jobs.run("associate", user_id=user_id)  # one new memory of six: the incremental pass
        assert run.counts["method"] == "vector_index" and run.counts["fallback_reason"] == "incremental"
        assert run.counts["memories"] == 1
        assert _linked(mem, user_id, "vector_index")["users"] in ([user_id], [])


def test_promotion_to_common_knowledge(dyn: GraphMemory, user_id: str) -> None:
    hot = dyn.remember("Always answer in British English", user_id=user_id, memory_type="procedural")
    cold = dyn.remember("The printer on floor 2 jams", user_id=user_id)
    assert hot.created_at is not None
    start = hot.created_at
    sessions = [f"s{i}" for i in range(6)]
    for i, s in enumerate(sessions):
        ids = [hot.id] if i < 4 else [cold.id]
        if i == 5:
            ids.append(cold.id)
        event = {
            "id": str(uuid.uuid4()),
            "user_id": user_id,
            "memory_ids": ids,
            "session_id": s,
            "context": "writing" if i % 2 else "support",
            "query": "x",
        }
        at = start + timedelta(days=i)
        dyn.runtime.store.write("recall_write", **effects_params([user_id], at, events=[event]))
    run = dyn.jobs.run("promote", user_id=user_id, now=start + timedelta(days=10))
    assert run.counts["promoted"] == 1
    promoted = node(dyn, hot.id)
    assert promoted["priority"] == "common" and promoted["layer"] == "long_term"
    assert node(dyn, cold.id)["priority"] != "common"
    # common knowledge does not decay
    strength = node(dyn, hot.id, start + timedelta(days=10))["strength"]
    dyn.jobs.run("decay", user_id=user_id, now=start + timedelta(days=200))
    assert node(dyn, hot.id, start + timedelta(days=200))["strength"] == pytest.approx(strength)


def test_review_dates_follow_stability(dyn: GraphMemory, user_id: str) -> None:
    m = dyn.remember("The wifi password is on the fridge", user_id=user_id, priority="P2")
    assert m.created_at is not None
    dyn.jobs.run("review", user_id=user_id, now=m.created_at)
    first = node(dyn, m.id)
    interval = d.review_interval(P.initial_stability["P2"], P.desired_retention)
    assert first["stability"] == pytest.approx(3.0)
    assert days(m.created_at, first["next_review_at"]) == pytest.approx(interval, abs=1e-4)
    recalled = m.created_at + timedelta(days=2)
    write(
        dyn, "MATCH (m:Memory {id: $id}) SET m.access_count = 1, m.last_accessed_at = $t", id=m.id, t=recalled
    )
    dyn.jobs.run("review", user_id=user_id, now=recalled)
    second = node(dyn, m.id)
    s1 = d.updated_stability(3.0, 2.0, P)
    assert second["stability"] == pytest.approx(s1)
    assert days(recalled, second["next_review_at"]) == pytest.approx(d.review_interval(s1, 0.9), abs=1e-4)
    assert dyn.jobs.run("review", user_id=user_id, now=recalled).counts["scheduled"] == 0
    assert math.isfinite(second["stability"])


def test_a_review_parameter_change_reschedules_every_memory(dyn: GraphMemory, user_id: str) -> None:
    """A memory scheduled once and not recalled since is not rescheduled by later review runs; changing the
    desired retention in the configuration makes the next run schedule it again under the new value, from its
    stored stability and anchor (before, it kept the old date)."""
    m = dyn.remember("The spare key is under the blue pot", user_id=user_id, priority="P2")
    assert m.created_at is not None
    dyn.jobs.run("review", user_id=user_id, now=m.created_at)
    first = node(dyn, m.id)
    cfg = dyn.automation.get_config()
    dyn.automation.set_config(
        cfg.model_copy(update={"dynamics": cfg.dynamics.model_copy(update={"desired_retention": 0.8})})
    )
    run = dyn.jobs.run("review", user_id=user_id, now=m.created_at + timedelta(hours=1))
    second = node(dyn, m.id)
    assert run.counts["scheduled"] >= 1 and second["stability"] == first["stability"]
    assert days(m.created_at, second["next_review_at"]) == pytest.approx(
        d.review_interval(first["stability"], 0.8), abs=1e-4
    )
    assert second["next_review_at"] > first["next_review_at"]  # a lower retention target: reviewed later


def test_an_interrupted_marking_is_completed_by_the_next_job_run(
    dyn: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The configuration is stored before its change marks memories due; when the marking fails, the change
    stays stored (set_config returns), the stored basis still names the old values, and the next job run
    (any job) marks first."""
    m = dyn.remember("The team standup is at nine thirty", user_id=user_id, priority="P1")
    assert m.created_at is not None
    dyn.jobs.run("decay", user_id=user_id, now=m.created_at + timedelta(hours=1))
    first = node(dyn, m.id)
    store, write_auto = dyn.runtime.store, dyn.runtime.store.write_auto

    def failing(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "decay_mark_due":
            raise StoreError("the server went away")
        return write_auto(name, **params)

    monkeypatch.setattr(store, "write_auto", failing)
    cfg = dyn.automation.get_config()
    faster = cfg.dynamics.model_copy(
        update={"strength_decay": {k: 2 * v for k, v in cfg.dynamics.strength_decay.items()}}
    )
    stored = dyn.automation.set_config(cfg.model_copy(update={"dynamics": faster}))
    assert stored.version == cfg.version + 1 and dyn.automation.get_config().dynamics == faster
    assert node(dyn, m.id)["decay_due"] == first["decay_due"]  # not marked
    monkeypatch.setattr(store, "write_auto", write_auto)
    dyn.jobs.run("promote", user_id=user_id, now=m.created_at + timedelta(hours=2))  # any job completes it
    assert node(dyn, m.id)["decay_due"] <= m.created_at
    dyn.jobs.run("decay", user_id=user_id, now=m.created_at + timedelta(hours=3))
    assert node(dyn, m.id)["strength_rate"] == pytest.approx(2 * first["strength_rate"])


def basis(mem: GraphMemory) -> list[str]:
    return list(mem.runtime.store.read("automation_due_basis", id=mem.automation.config_id)[0]["basis"])


@pytest.mark.parametrize(
    ("prop", "value"),
    [
        ("pending_marks", "'decay_mark_due'"),
        ("pending_marks", "42"),
        ("pending_marks", "[1, 2]"),
        ("pending_marks", "['no_such_mark']"),
        ("due_basis", "'decay_mark_due=0'"),
        ("due_basis", "[1, 2]"),
        ("due_basis", "['decay_mark_due=0', 'decay_mark_due=1', 'x']"),
    ],
)
def test_a_mistyped_due_basis_makes_no_job_fail(
    dyn: GraphMemory, user_id: str, prop: str, value: str
) -> None:
    """Whatever the configuration node's due basis or an older version's pending markings hold (written by
    hand), job runs and configuration changes still work, and the basis is whole again after one run; a
    pending name no version knows is dropped."""
    dyn.remember("The team standup is at nine thirty", user_id=user_id)  # a job skips a user of no data
    cfg = dyn.automation.get_config()
    dyn.automation.set_config(cfg.with_job("promote", enabled=True))  # the node exists
    write(dyn, f"MATCH (c:AutomationConfig {{id: $id}}) SET c.{prop} = {value}", id=dyn.automation.config_id)
    assert dyn.jobs.run("promote", user_id=user_id).status == "success"
    cfg = dyn.automation.get_config()
    faster = cfg.dynamics.model_copy(update={"desired_retention": 0.85})
    dyn.automation.set_config(cfg.model_copy(update={"dynamics": faster}))
    assert sorted(basis(dyn)) == sorted(mark.basis(faster) for mark in DUE_MARKS)
    rows = dyn.query(
        "MATCH (c:AutomationConfig {id: $id}) RETURN c.pending_marks AS p", {"id": dyn.automation.config_id}
    )
    assert rows[0]["p"] in (None, [])


def test_a_preset_changed_in_settings_reaches_every_memory(
    server: Any, embedder: OnnxEmbedder, user_id: str
) -> None:
    """With no stored configuration the preset comes from ``Settings``; a process started with another
    preset makes every memory due at its first job run, so its decay applies the new rates to memories whose
    next status change lay weeks ahead (before, only a stored change did)."""
    config_id = disposable(f"test-{uuid.uuid4()}")
    settings = Settings(automation_config_id=config_id, dynamics_preset="balanced")
    with GraphMemory.connect(settings=settings, embedder=embedder) as mem:
        mem.init()
        m = mem.remember("The gym closes at ten on Fridays", user_id=user_id, priority="P2")
        assert m.created_at is not None
        mem.jobs.run("decay", user_id=user_id, now=m.created_at + timedelta(hours=1))
        first = node(mem, m.id)
        assert first["decay_due"] > m.created_at + timedelta(days=2)
        mem.jobs.run("promote", user_id=user_id, now=m.created_at + timedelta(hours=2))
        assert node(mem, m.id)["decay_due"] == first["decay_due"]  # same values: nothing marked
        assert mem.automation.due_dates() == {"decay": "current", "review": "current"}
    settings = Settings(automation_config_id=config_id, dynamics_preset="aggressive")
    with GraphMemory.connect(settings=settings, embedder=embedder) as mem:
        assert mem.automation.due_dates() == {"decay": "pending", "review": "current"}  # review reads no rate
        assert mem.automation.health().details["due_dates"]["decay"] == "pending"
        dry = mem.jobs.run("decay", user_id=user_id, now=m.created_at + timedelta(hours=3), dry_run=True)
        assert dry.counts["due_marking_pending"] is True
        assert node(mem, m.id)["decay_due"] == first["decay_due"]  # a dry run marks nothing
        mem.jobs.run("decay", user_id=user_id, now=m.created_at + timedelta(hours=3))
        after = node(mem, m.id)
        assert mem.automation.due_dates() == {"decay": "current", "review": "current"}
    rates = d.PRESETS["aggressive"].strength_decay["P2"] / P.strength_decay["P2"]
    assert after["strength_rate"] == pytest.approx(rates * first["strength_rate"]) != first["strength_rate"]


def test_a_change_during_a_decay_run_is_applied_by_the_next(
    dyn: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decay run computes with the values it read at its start. When the configuration changes while it
    runs, after the change's marking and before the run writes, the run's dates are the old values'; the
    run marks the stored basis stale, so the next job run makes every memory due again and the next decay
    applies the new values (before, those memories kept the old coefficients until their old due date)."""
    m = dyn.remember("The bakery on Elm Street opens at seven", user_id=user_id, priority="P2")
    assert m.created_at is not None
    t = m.created_at
    cfg = dyn.automation.get_config()
    faster = cfg.dynamics.model_copy(
        update={"strength_decay": {k: 2 * v for k, v in cfg.dynamics.strength_decay.items()}}
    )
    store, write_auto = dyn.runtime.store, dyn.runtime.store.write_auto

    def change_first(name: str, /, **params: Any) -> list[dict[str, Any]]:
        if name == "dynamics_decay":
            monkeypatch.setattr(store, "write_auto", write_auto)
            dyn.automation.set_config(
                cfg.model_copy(update={"dynamics": faster})
            )  # marks, then the run writes
        return write_auto(name, **params)

    monkeypatch.setattr(store, "write_auto", change_first)
    dyn.jobs.run("decay", user_id=user_id, now=t + timedelta(hours=1))
    old = node(dyn, m.id)
    assert old["decay_due"] > t + timedelta(days=2)  # written under the old values after the marking
    assert [e for e in basis(dyn) if e.startswith("decay_mark_due=")] == ["decay_mark_due=stale"]
    dyn.jobs.run("decay", user_id=user_id, now=t + timedelta(hours=2))
    new = node(dyn, m.id)
    assert new["strength_rate"] == pytest.approx(2 * old["strength_rate"])
    assert sorted(basis(dyn)) == sorted(mark.basis(faster) for mark in DUE_MARKS)


def test_forget_reads_only_the_dormant_and_the_due(dyn: GraphMemory, user_id: str) -> None:
    """Soft-forgetting derives values only for memories that can be below its thresholds: the dormant and
    those decay has not settled (due, never evaluated). A memory decay left weak with its next change
    ahead is skipped whatever its stored values say; made due (as every writer of a decay input does), it is
    read."""
    a = dyn.remember("I parked on level three today", user_id=user_id, priority="P3")
    b = dyn.remember("The printer on floor two jams a lot", user_id=user_id, priority="P3")
    assert a.created_at is not None
    later = a.created_at + timedelta(days=200)
    dyn.jobs.run("decay", user_id=user_id, now=later)
    assert node(dyn, a.id)["status"] == node(dyn, b.id)["status"] == "dormant"
    write(
        dyn,
        "MATCH (m:Memory {id: $id}) SET m.status = 'weak', m.decay_due = $due",
        id=b.id,
        due=later + timedelta(days=400),
    )
    assert dyn.jobs.run("forget", user_id=user_id, now=later).counts["soft_forgotten"] == 1
    assert node(dyn, a.id)["status"] == "forgotten" and node(dyn, b.id)["status"] == "weak"
    write(dyn, "MATCH (m:Memory {id: $id}) SET m.decay_due = datetime({epochSeconds: 0})", id=b.id)
    assert dyn.jobs.run("forget", user_id=user_id, now=later).counts["soft_forgotten"] == 1
    assert node(dyn, b.id)["status"] == "forgotten"
