"""Reinforcement, retrieval-induced forgetting, competition, synergy, conflict inhibition and metamemory on
the real server. Each Cypher twin is checked against its pure rule (graphmem.model.heuristics,
graphmem.model.metamemory) over generated memories, in the pattern of tests/test_dynamics_spec.py."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import disposable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMemory, Settings
from graphmem.model import anchors
from graphmem.model import heuristics as h
from graphmem.model import metamemory as mm
from graphmem.model.anchors import DUE_NOW
from graphmem.model.dynamics import DynamicsParams
from graphmem.retrieval.effects import effects_params

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
SETTINGS = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _create(mem: GraphMemory, user: str, props: list[dict[str, Any]]) -> list[str]:
    rows = [
        {"id": f"{user}-{i}", "user_id": user, "content": f"memory {i}", **p} for i, p in enumerate(props)
    ]
    mem.runtime.store.run_statement("UNWIND $rows AS row CREATE (m:Memory) SET m = row", {"rows": rows})
    return [r["id"] for r in rows]


def _props(mem: GraphMemory, mid: str) -> dict[str, Any]:
    return mem.query("MATCH (m:Memory {id: $id}) RETURN m {.*, embedding: null} AS m", {"id": mid})[0]["m"]


def _drop(mem: GraphMemory, user: str) -> None:
    mem.runtime.store.run_statement("MATCH (n) WHERE n.user_id = $u DETACH DELETE n", {"u": user})


def _gap(props: dict[str, Any]) -> float:
    since = props.get("last_accessed_at") or props["recorded_at"]
    return max(0.0, (NOW - since).total_seconds() / 86400.0)


_STATE = st.fixed_dictionaries(
    {
        "strength": st.floats(0, 4),
        "access_count": st.integers(0, 30),
        "recorded_at": st.integers(0, 24 * 90).map(lambda hrs: NOW - timedelta(hours=hrs, seconds=7)),
        "last_accessed_at": st.one_of(
            st.none(), st.integers(0, 24 * 30).map(lambda hrs: NOW - timedelta(hours=hrs, seconds=3))
        ),
    }
)


@SETTINGS
@given(states=st.lists(_STATE, min_size=1, max_size=6))
def test_reinforcement_cypher_matches_the_rule(dyn: GraphMemory, states: list[dict[str, Any]]) -> None:
    """Recall (recall_write) and re-stating (memory_merge_duplicate) grow strength exactly as
    heuristics.reinforce says, with spacing, and recall more than re-stating (testing effect)."""
    user = disposable(f"test-{uuid.uuid4()}")
    ids = _create(dyn, user, [{k: v for k, v in s.items() if v is not None} for s in states])
    twins = _create(dyn, user + "-b", [{k: v for k, v in s.items() if v is not None} for s in states])
    r = h.REINFORCEMENT.cypher()
    dyn.runtime.store.write("recall_write", **effects_params([user], NOW, reinforced=ids))
    merge = {"content": "again", "similarity": 0.97, "occurred_at": NOW, "metadata": "{}"}
    merges = [{"i": i, "id": mid, "merge_id": f"{mid}-m", **merge} for i, mid in enumerate(twins)]
    dyn.runtime.store.write("memory_merge_duplicate", merges=merges, user_id=user + "-b", now=NOW, r=r)
    for s, mid, twin in zip(states, ids, twins, strict=True):
        recalled, restated = _props(dyn, mid), _props(dyn, twin)
        gap = _gap(s)
        assert recalled["strength"] == pytest.approx(
            h.reinforce(s["strength"], s["access_count"], gap), abs=1e-9
        )
        want = h.reinforce(s["strength"], s["access_count"], gap, "restore")
        assert restated["strength"] == pytest.approx(want, abs=1e-9)
        assert recalled["access_count"] == restated["access_count"] == s["access_count"] + 1
        assert recalled["recall_hits"] == 1 and recalled["last_accessed_at"] == NOW
    _drop(dyn, user)
    _drop(dyn, user + "-b")


@SETTINGS
@given(
    rows=st.lists(
        st.tuples(
            st.one_of(st.none(), st.floats(0, 1)),
            st.integers(0, 24 * 5).map(lambda hrs: NOW - timedelta(hours=hrs, seconds=11)),
            st.floats(0, 1),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_inhibition_cypher_matches_the_rule(
    dyn: GraphMemory, rows: list[tuple[Any, datetime, float]]
) -> None:
    user = disposable(f"test-{uuid.uuid4()}")
    props = [{"inhibition": i, "inhibited_at": at if i is not None else None} for i, at, _ in rows]
    ids = _create(dyn, user, [{k: v for k, v in p.items() if v is not None} for p in props])
    updates = [{"id": mid, "activation": a} for mid, (_, _, a) in zip(ids, rows, strict=True)]
    dyn.runtime.store.write("recall_write", **effects_params([user], NOW, suppressed=updates))
    for mid, (i, at, a) in zip(ids, rows, strict=True):
        got = _props(dyn, mid)
        want = mm.inhibited(mm.inhibition_now(i, at if i is not None else None, NOW), a)
        assert got["inhibition"] == pytest.approx(want, abs=1e-9)
        assert got["inhibited_at"] == NOW and got["recall_misses"] == 1
    _drop(dyn, user)


CATEGORIES = {
    "fruits": ["banana", "cherry", "mango", "peach"],
    "tools": ["hammer", "wrench", "pliers", "chisel"],
}


def _rif_run(mem: GraphMemory, user: str) -> tuple[dict[str, str], list[str]]:
    ids = {
        item: mem.remember(f"{item.capitalize()} is one of the {cat} I listed", user_id=user).id
        for cat, items in CATEGORIES.items()
        for item in items
    }
    for _ in range(2):
        for item in ("banana", "cherry"):
            mem.recall(f"fruits: {item}", user_id=user, k=1, hops=0)
    test = mem.recall("the fruits I listed", user_id=user, k=2, hops=0, reinforce=False)
    return ids, [x.memory.content.split(" ", 1)[0].lower() for x in test]


def test_retrieval_practice_inhibits_unpractised_competitors(dyn: GraphMemory, user_id: str) -> None:
    """Practising banana and cherry inhibits mango and peach (same category cue) but not the tools, and the
    category cue then finds the practised ones; with RIF off nothing is inhibited."""
    ids, found = _rif_run(dyn, user_id)
    inhibition = {item: _props(dyn, mid).get("inhibition") or 0.0 for item, mid in ids.items()}
    assert inhibition["mango"] > 0.1 and inhibition["peach"] > 0.1
    # each practised item is released when returned, and inhibited again by the other's practice
    assert max(inhibition["banana"], inhibition["cherry"]) < min(inhibition["mango"], inhibition["peach"])
    assert all(inhibition[t] == 0.0 for t in CATEGORIES["tools"])
    assert _props(dyn, ids["mango"])["recall_misses"] >= 1
    assert sorted(found) == ["banana", "cherry"]
    with GraphMemory.connect(
        settings=Settings(
            retrieval_induced_forgetting=False, automation_config_id=disposable(f"test-{uuid.uuid4()}")
        ),
        embedder=dyn.runtime.embedder,
    ) as off:
        other = f"{user_id}-off"
        ids_off, _ = _rif_run(off, other)
        assert all((_props(off, mid).get("inhibition") or 0.0) == 0.0 for mid in ids_off.values())
        _drop(off, other)


def test_a_recall_inhibits_only_its_strongest_competitors(dyn: GraphMemory, user_id: str) -> None:
    """Retrieval-induced forgetting falls on the few strongest competitors of the cue (at most
    ``MAX_COMPETITORS``), not on everything it activated: eleven fruits listed alike all answer "the fruits I
    listed" about as well, and one recall of it (k = 1) inhibits five of the ten it did not return. The first
    rule inhibited every candidate above half the returned memory's relevance (up to 20: all ten here), and an
    agent's recalls then cost the questions it had not asked 0.038 R@10 on LoCoMo (benchmarks/rif_use.py)."""
    fruits = [
        "banana",
        "cherry",
        "mango",
        "peach",
        "plum",
        "apple",
        "pear",
        "grape",
        "lemon",
        "melon",
        "kiwi",
    ]
    ids = {
        f: dyn.remember(f"{f.capitalize()} is one of the fruits I listed", user_id=user_id).id for f in fruits
    }
    for tool in ("hammer", "wrench", "saw", "pliers"):
        dyn.remember(f"{tool.capitalize()} is one of the tools I listed", user_id=user_id)
    shown = dyn.recall("the fruits I listed", user_id=user_id, k=1, hops=0)
    dyn.flush()  # the recall's effects, if deferred
    inhibited = {f for f, mid in ids.items() if (_props(dyn, mid).get("inhibition") or 0.0) > 0}
    assert mm.MAX_COMPETITORS == 5 and len(inhibited) == mm.MAX_COMPETITORS, inhibited
    assert shown[0].memory.id not in {ids[f] for f in inhibited}


def test_the_pool_reads_when_recall_inhibited_a_memory_as_epoch_milliseconds(
    dyn: GraphMemory, user_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recall's pool rows carry no times (the driver decodes a date-time ~50x slower than an integer, and a
    tenant recalled often has most memories inhibited): an inhibited memory's row gives ``inhibited_ms``,
    and ranking lowers it by the same factor as the stored ``inhibited_at`` gives."""
    ids, _ = _rif_run(dyn, user_id)
    pools: list[list[dict[str, Any]]] = []
    read = dyn.runtime.store.read

    def spy(name: str, /, **params: Any) -> list[dict[str, Any]]:
        rows = read(name, **params)
        if "recall_pool" in name:
            pools.append(rows[0]["memories"])
        return rows

    monkeypatch.setattr(dyn.runtime.store, "read", spy)
    hits = dyn.recall("the fruits I listed", user_id=user_id, k=4, hops=0, reinforce=False)
    rows = {r["id"]: r for r in pools[0]}
    mango = rows[ids["mango"]]
    stored = _props(dyn, ids["mango"])
    assert "inhibited_at" not in mango and mango["inhibited_ms"] == int(
        stored["inhibited_at"].timestamp() * 1000
    )
    assert not [v for r in pools[0] for v in r.values() if isinstance(v, datetime)]  # no time decoded
    now = datetime.now(UTC)
    factor = mm.ranking_factor(mango, now)
    assert factor == pytest.approx(mm.ranking_factor(stored, now), abs=1e-6) and factor < 1.0
    shown = {h.memory.id: h.explanation.components["metamemory"] for h in hits}
    assert shown.get(ids["mango"], 0.0) < 1.0 and shown.get(ids["hammer"], 1.0) == 1.0


def test_co_recalled_memories_strengthen_their_link(dyn: GraphMemory, user_id: str) -> None:
    a = dyn.remember("My sister Ana plays the cello in an orchestra", user_id=user_id)
    b = dyn.remember("Ana's orchestra plays the cello suites in May", user_id=user_id)
    edges = (
        "MATCH (:Memory {id: $a})-[r:RELATED_TO]-(:Memory {id: $b}) RETURN elementId(r) AS e, r.weight AS w"
    )
    dyn.runtime.store.run_statement(
        "MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) CREATE (a)-[:RELATED_TO {weight: 0.6}]->(b)",
        {"a": a.id, "b": b.id},
    )
    before = {r["e"]: r["w"] for r in dyn.query(edges, {"a": a.id, "b": b.id})}
    hits = dyn.recall("Ana cello orchestra", user_id=user_id, k=2, hops=0)
    assert {x.memory.id for x in hits} == {a.id, b.id}
    after = {r["e"]: r["w"] for r in dyn.query(edges, {"a": a.id, "b": b.id})}
    assert after == pytest.approx({e: h.co_recalled_weight(w) for e, w in before.items()})
    dyn.recall("Ana cello orchestra", user_id=user_id, k=1, hops=0)  # one memory alone: no pair
    assert {r["e"]: r["w"] for r in dyn.query(edges, {"a": a.id, "b": b.id})} == after


def test_the_weaker_of_near_duplicates_fades_faster(dyn: GraphMemory, user_id: str) -> None:
    """Competition: consolidate marks the weaker of two near-duplicates with rivalry; decay then takes it
    down faster than an identical memory without a stronger twin."""
    start = NOW - timedelta(days=20)
    base = {
        "priority": "P3",
        "status": "active",
        "recorded_at": start,
        "created_at": start,
        "decay_due": DUE_NOW,
    }
    strong, weak, alone, weaker = _create(
        dyn,
        user_id,
        [{**base, "strength": s} for s in (2.0, 1.0, 1.0, 0.5)],
    )  # weak has a stronger twin; alone has the same kind of link, to a weaker one
    dyn.runtime.store.run_statement(
        "UNWIND $pairs AS p MATCH (a:Memory {id: p[0]}), (b:Memory {id: p[1]}) "
        "CREATE (a)-[:RELATED_TO {weight: 0.9, similarity: 0.9}]->(b)",
        {"pairs": [[strong, weak], [alone, weaker]]},
    )
    assert dyn.jobs.run("consolidate", user_id=user_id, now=NOW).status == "success"
    assert _props(dyn, weak)["rivalry"] == pytest.approx(0.9)
    assert not _props(dyn, strong).get("rivalry") and not _props(dyn, alone).get("rivalry")
    assert dyn.jobs.run("decay", user_id=user_id, now=NOW + timedelta(days=5)).status == "success"
    later = NOW + timedelta(days=5)
    assert (
        anchors.strength_now(_props(dyn, weak), later) < anchors.strength_now(_props(dyn, alone), later) < 1.0
    )
    params = DynamicsParams()
    assert params.rival_similarity < 0.9


def test_conflicting_memories_suppress_each_other_until_one_is_confirmed(
    dyn: GraphMemory, user_id: str
) -> None:
    one = dyn.remember("The weekly team meeting is on Monday mornings at nine", user_id=user_id)
    two = dyn.remember("Our team meeting moved to Thursday afternoons in the big room", user_id=user_id)
    assert one.id != two.id
    dyn.runtime.store.run_statement(
        "MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) SET a.retained = true "
        "CREATE (a)-[:CONFLICTS_WITH {reason: 'test'}]->(b)",
        {"a": one.id, "b": two.id},
    )  # the older one is retained by governance: consolidate cannot settle the conflict by recency
    assert dyn.jobs.run("consolidate", user_id=user_id).status == "success"
    assert _props(dyn, one.id)["open_conflicts"] == _props(dyn, two.id)["open_conflicts"] == 1
    before = {x.memory.id: x for x in dyn.recall("team meeting day", user_id=user_id, k=2, reinforce=False)}
    assert before[one.id].explanation.components["metamemory"] == pytest.approx(1 - mm.CONFLICT_SUPPRESSION)
    dyn.memories.feedback(two.id, user_id=user_id, useful=True)
    assert dyn.jobs.run("consolidate", user_id=user_id).status == "success"
    assert _props(dyn, one.id)["open_conflicts"] == _props(dyn, two.id)["open_conflicts"] == 0
    after = {x.memory.id: x for x in dyn.recall("team meeting day", user_id=user_id, k=2, reinforce=False)}
    assert (
        after[two.id].explanation.metamemory["reliability"]
        > before[two.id].explanation.metamemory["reliability"]
    )
    assert after[one.id].explanation.components["metamemory"] == 1.0


def test_metamemory_is_explained_and_updated_by_recall(dyn: GraphMemory, user_id: str) -> None:
    m = dyn.remember("I keep my passport in the blue drawer", user_id=user_id)
    first = dyn.recall("where is my passport?", user_id=user_id, k=1)[0]
    assert set(first.explanation.metamemory) == {"accessibility", "reliability", "timeliness"}
    again = dyn.recall("where is my passport?", user_id=user_id, k=1)[0]
    assert again.memory.id == m.id
    assert again.explanation.metamemory["accessibility"] > first.explanation.metamemory["accessibility"]
    assert 0.0 <= again.confidence <= 1.0
