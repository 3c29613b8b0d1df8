"""RELATED_TO weights derived at read time (graphmem.model.edge_weights), on the real server: the Cypher
fragment every reader includes gives the pure function's value; the decay job writes only edges never
evaluated, reweighted, due or whose coefficients moved, exactly as the specification says, and nothing on a
rerun; an old-style edge reads its stored weight; the forget job prunes an edge once its derived weight is
below the floor, not before, reading only due edges through the relationship index."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import disposable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_calls import record_calls

from graphmem import GraphMemory
from graphmem.formation.writer import formation_params
from graphmem.model import edge_weights as spec
from graphmem.model.dynamics import DynamicsParams
from graphmem.retrieval.effects import effects_params
from graphmem.store.queries import expand, query
from graphmem.temporal import migrate

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
P = DynamicsParams()
HYPOTHESIS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)


def _use(mem: GraphMemory, params: DynamicsParams) -> None:
    cfg = mem.automation.get_config()
    mem.automation.set_config(cfg.model_copy(update={"dynamics": params}))


def _at(lo_days: float, hi_days: float) -> st.SearchStrategy[datetime]:
    return st.integers(int(lo_days * 24), int(hi_days * 24)).map(
        lambda h: NOW + timedelta(hours=h, seconds=17)
    )


_maybe_weight = st.one_of(st.none(), st.floats(0, 1))
EDGE = st.fixed_dictionaries(
    {
        "weight": _maybe_weight,
        "weight_base": _maybe_weight,
        "weight_updated_at": st.one_of(st.none(), _at(-400, 2)),
        "recorded_at": st.one_of(st.none(), _at(-400, 0)),
        "weight_rate": st.one_of(st.none(), st.sampled_from([0.01, 0.0, 0.2, 1.0]), st.floats(0, 1)),
        "weight_floor": st.one_of(st.none(), st.sampled_from([0.05, 0.3])),
        "weight_due": st.sampled_from(
            [None, spec.DUE_NOW, NOW - timedelta(hours=3), NOW + timedelta(days=2), spec.NEVER]
        ),
        "expired_at": st.sampled_from([None, None, None, NOW - timedelta(days=1)]),
    }
)
"""Every shape an edge can have: made before this model (weight only, or the old job's base and anchor),
made since the last run (weight_due at the epoch, no rate), evaluated, due, with moved coefficients."""


def _store(mem: GraphMemory, user: str, edges: list[dict[str, Any]]) -> None:
    mem.runtime.store.run_statement(
        "UNWIND range(0, $n) AS i CREATE (:Memory {id: $u + '-' + i, user_id: $u, status: 'active', "
        "decay_due: datetime('9999-01-01T00:00:00Z')})",
        {"u": user, "n": len(edges)},
    )
    mem.runtime.store.run_statement(
        "UNWIND range(0, size($edges) - 1) AS i "
        "MATCH (a:Memory {id: $u + '-' + i}), (b:Memory {id: $u + '-' + (i + 1)}) "
        "CREATE (a)-[r:RELATED_TO]->(b) SET r = $edges[i]",
        {"u": user, "edges": edges},
    )


EDGES_AT = expand(
    "MATCH (a:Memory)-[r:RELATED_TO]->() WHERE a.user_id = $u "
    "RETURN a.id AS start, r {.*} AS props, {{edge_weight_now(r, $now)}} AS weight"
)


def _edges(mem: GraphMemory, user: str, now: datetime = NOW) -> dict[int, tuple[dict[str, Any], Any]]:
    """Each edge's stored properties and its weight at ``now`` as every reader derives it (the fragment), by
    the number of its start memory (edge i joins memories i and i + 1)."""
    rows = mem.query(EDGES_AT, {"u": user, "now": now})
    return {int(r["start"].rsplit("-", 1)[1]): (r["props"], r["weight"]) for r in rows}


def _drop(mem: GraphMemory, user: str) -> None:
    mem.runtime.store.run_statement("MATCH (m:Memory) WHERE m.user_id = $u DETACH DELETE m", {"u": user})


def _close(got: Any, want: Any) -> bool:
    if want is None or got is None:
        return got is want
    return bool(got == pytest.approx(want, rel=1e-9, abs=1e-12))


@HYPOTHESIS
@given(edges=st.lists(EDGE, min_size=1, max_size=12), later=st.lists(st.integers(-3, 900), max_size=3))
def test_the_fragment_derives_the_specifications_weight(
    dyn: GraphMemory, edges: list[dict[str, Any]], later: list[int]
) -> None:
    """Read back through Cypher at several clocks (before the anchor too), the fragment's weight is the pure
    function's; an edge without a rate (an older store's) reads its stored weight, None if it has none."""
    user = disposable(f"test-{uuid.uuid4()}")
    _store(dyn, user, [{k: v for k, v in e.items() if v is not None} for e in edges])
    for now in [NOW] + [NOW + timedelta(days=d, hours=5) for d in later]:
        for eid, (props, weight) in _edges(dyn, user, now).items():
            assert _close(weight, spec.weight_now(props, now)), (props, now, weight)
            if props.get("weight_rate") is None:
                assert weight == edges[eid]["weight"]
    _drop(dyn, user)


@HYPOTHESIS
@given(
    edges=st.lists(EDGE, min_size=1, max_size=12),
    rate=st.sampled_from([0.01, 0.0, 0.2, 1.0]),
    floor=st.sampled_from([0.05, 0.0, 0.3]),
)
def test_the_decay_job_writes_what_the_specification_says_and_only_that(
    dyn: GraphMemory, edges: list[dict[str, Any]], rate: float, floor: float
) -> None:
    params = DynamicsParams(edge_decay=rate, edge_weight_floor=floor)
    _use(dyn, params)
    user = disposable(f"test-{uuid.uuid4()}")
    _store(dyn, user, [{k: v for k, v in e.items() if v is not None} for e in edges])
    migrate.mark_edges_due(
        dyn.runtime
    )  # init(): edges without weight_due (an older graphmem's) are marked due
    before = _edges(dyn, user)
    run = dyn.jobs.run("decay", user_id=user, now=NOW)
    after = _edges(dyn, user)
    written = 0
    for eid, (props, weight) in after.items():
        old = before[eid][0]
        assert _close(weight, spec.weight_now(props, NOW)), props
        if old.get("expired_at") is not None or not spec.is_due(old, NOW, rate, floor):
            assert props == old, (old, props)  # not read, not written
            continue
        want = spec.evaluate(old, NOW, rate, floor)
        for name, value in want.__dict__.items():
            if name == "weight_due":
                assert abs((props[name] - value).total_seconds()) <= 2.0, (old, props, want)
            else:
                assert _close(props.get(name), value) if name == "weight" else props[name] == value, name
        written += props != old
        # the derived weight is what the nightly rewrite used to store: base · (1 - edge_decay)^days
        since = math.floor(want.weight_updated_at.timestamp())
        days = max(0.0, (math.floor(NOW.timestamp()) - since) / 86400)
        assert _close(weight, want.weight_base * (1 - rate) ** days), (old, props)
    assert run.counts["edges"] == written
    # a rerun at the same clock writes nothing
    assert dyn.jobs.run("decay", user_id=user, now=NOW).counts["edges"] == 0
    assert _edges(dyn, user) == after
    _drop(dyn, user)


def _formed(dyn: GraphMemory, user: str, n: int, at: datetime) -> None:
    """``n`` memories and the RELATED_TO edges formation writes between neighbours (formation_write)."""
    _store(dyn, user, [])
    dyn.runtime.store.run_statement(
        "UNWIND range(1, $n) AS i CREATE (:Memory {id: $u + '-' + i, user_id: $u, status: 'active', "
        "decay_due: datetime('9999-01-01T00:00:00Z')})",
        {"u": user, "n": n},
    )
    pairs = [
        {"src": f"{user}-{i}", "dst": f"{user}-{i + 1}", "weight": 0.6 + i / 100, "valid_from": at}
        for i in range(n)
    ]
    dyn.runtime.store.write_auto("formation_write", **formation_params(user, at, related=pairs))


def test_later_decay_runs_leave_unchanged_edges_alone(dyn: GraphMemory) -> None:
    _use(dyn, P)
    user = disposable(f"test-{uuid.uuid4()}")
    _formed(dyn, user, 6, NOW)
    runs = [dyn.jobs.run("decay", user_id=user, now=NOW + timedelta(days=d, hours=1)) for d in range(4)]
    assert [r.counts["edges"] for r in runs] == [6, 0, 0, 0]  # evaluated once: rate, floor, due
    first = _edges(dyn, user, NOW + timedelta(days=3))
    assert all(p["weight_updated_at"] == NOW and p["weight"] == p["weight_base"] for p, _ in first.values())
    assert all(_close(w, p["weight_base"] * (1 - P.edge_decay) ** 3) for p, w in first.values())
    # a config change moves the rate: every edge once more, then nothing again
    _use(dyn, DynamicsParams(edge_decay=0.02))
    assert dyn.jobs.run("decay", user_id=user, now=NOW + timedelta(days=4)).counts["edges"] == 6
    assert dyn.jobs.run("decay", user_id=user, now=NOW + timedelta(days=5)).counts["edges"] == 0
    _use(dyn, P)
    _drop(dyn, user)


def test_an_old_style_edge_reads_its_stored_weight_until_evaluated(dyn: GraphMemory) -> None:
    """Written by an older graphmem: the stored weight, as today; the decay job's first run over it (the
    migration) anchors it where the old job did (its base, or its weight at its recording)."""
    _use(dyn, P)
    user = disposable(f"test-{uuid.uuid4()}")
    made = NOW - timedelta(days=40)
    _store(
        dyn,
        user,
        [
            {"weight": 0.7, "recorded_at": made},
            {"weight": 0.5, "weight_base": 0.8, "weight_updated_at": made},
        ],
    )
    migrate.mark_edges_due(dyn.runtime)  # init() marks them due
    before = _edges(dyn, user, NOW + timedelta(days=9))
    assert [before[0][1], before[1][1]] == [0.7, 0.5]
    assert dyn.jobs.run("decay", user_id=user, now=NOW).counts["edges"] == 2
    decay = 1 - P.edge_decay
    after = _edges(dyn, user)
    assert _close(after[0][1], 0.7 * decay**40) and _close(after[1][1], 0.8 * decay**40)
    # from then on derived: ten days later, with no run since, the weights the nightly rewrite would store
    later = _edges(dyn, user, NOW + timedelta(days=10))
    assert _close(later[0][1], 0.7 * decay**50) and _close(later[1][1], 0.8 * decay**50)
    _drop(dyn, user)


def test_co_recall_reweights_from_the_derived_weight(dyn: GraphMemory) -> None:
    _use(dyn, P)
    user = disposable(f"test-{uuid.uuid4()}")
    _formed(dyn, user, 1, NOW)
    dyn.jobs.run("decay", user_id=user, now=NOW)
    later = NOW + timedelta(days=30)
    returned = [f"{user}-0", f"{user}-1"]  # recalled together: co-recall (and reinforcement) at rate 0.1
    dyn.runtime.store.write_auto("recall_write", **effects_params([user], later, reinforced=returned))
    props, weight = _edges(dyn, user, later)[0]
    w = 0.6 * (1 - P.edge_decay) ** 30
    assert _close(weight, w + 0.1 * (1 - w)) and props["weight_updated_at"] == later
    assert props["weight_due"] == spec.DUE_NOW and props["weight_rate"] == P.edge_decay
    _drop(dyn, user)


def test_pruning_uses_the_derived_weight(dyn: GraphMemory) -> None:
    """0.1 · 0.99^days falls below 0.05 after 68.97 days: kept on day 68, removed on day 70, with no decay
    run in between (the stored weight never moves)."""
    _use(dyn, P)
    user = disposable(f"test-{uuid.uuid4()}")
    _store(
        dyn, user, [{"weight": 0.1, "weight_base": 0.1, "weight_updated_at": NOW, "weight_due": spec.DUE_NOW}]
    )
    dyn.jobs.run("decay", user_id=user, now=NOW + timedelta(days=1))
    due = _edges(dyn, user)[0][0]["weight_due"]
    assert NOW + timedelta(days=68.9) < due <= NOW + timedelta(days=68.97)
    assert dyn.jobs.run("forget", user_id=user, now=NOW + timedelta(days=68)).counts["edges_removed"] == 0
    assert _edges(dyn, user)
    assert dyn.jobs.run("forget", user_id=user, now=NOW + timedelta(days=70)).counts["edges_removed"] == 1
    assert not _edges(dyn, user)
    _drop(dyn, user)


def test_forget_reads_only_due_edges_through_the_index(dyn: GraphMemory) -> None:
    with dyn.runtime.store.driver.session() as session:
        plan = (
            session.run("EXPLAIN " + query("forget_edges"), user_id="u", now=NOW, p=P.cypher(), batch=100)
            .consume()
            .plan
        )
    operators = []
    todo = [plan]
    while todo:
        op = todo.pop()
        operators.append(op["operatorType"].split("@")[0])
        todo.extend(op.get("children", []))
    assert "DirectedRelationshipIndexSeekByRange" in operators, operators
    assert not {"NodeByLabelScan", "DirectedRelationshipTypeScan", "DirectedAllRelationshipsScan"} & set(
        operators
    )


def _operators(mem: GraphMemory, name: str, **params: Any) -> list[str]:
    with mem.runtime.store.driver.session() as session:
        plan = session.run("EXPLAIN " + query(name), **params).consume().plan
    out, todo = [], [plan]
    while todo:
        op = todo.pop()
        out.append(op["operatorType"].split("@")[0])
        todo.extend(op.get("children", []))
    return out


def test_decay_over_all_tenants_seeks_edges_through_indexes(dyn: GraphMemory) -> None:
    """Decay reads the due edges and those under other coefficients through their relationship indexes; it
    scans neither a tenant's memories' edges nor every edge, for one tenant or for all."""
    ops = _operators(dyn, "dynamics_decay_edges", user_id=None, now=NOW, p=P.cypher(), batch=100)
    assert ops.count("DirectedRelationshipIndexSeekByRange") == 5, ops  # either scope: the same plan
    assert not {"NodeByLabelScan", "DirectedRelationshipTypeScan", "DirectedAllRelationshipsScan"} & set(ops)


def test_init_marks_old_edges_due_so_the_index_finds_them(dyn: GraphMemory) -> None:
    """An edge written before weight_due existed gets it at the epoch from init()'s migration: the next decay
    run finds it through the index."""
    user = disposable(f"test-{uuid.uuid4()}")
    _store(dyn, user, [{"weight": 0.7, "recorded_at": NOW - timedelta(days=3)}])
    migrate.mark_edges_due(dyn.runtime)
    props, weight = _edges(dyn, user)[0]
    assert props["weight_due"] == datetime(1970, 1, 1, tzinfo=UTC) and weight == 0.7  # marked, not reweighted
    migrate.mark_edges_due(dyn.runtime)  # idempotent
    assert _edges(dyn, user)[0][0] == props
    _drop(dyn, user)


def test_init_reads_every_edge_only_once_per_store(dyn: GraphMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Marking old edges reads every RELATED_TO edge, so init() does it until it has completed once on the
    store (a Migration node), and never again at start-up."""
    migrate.run(dyn.runtime)
    done = dyn.query("MATCH (m:Migration {id: $id}) RETURN m.completed_at AS at", {"id": migrate.EDGES_DUE})
    assert len(done) == 1 and done[0]["at"] is not None
    writes = record_calls(dyn.runtime.store, "write", monkeypatch)
    migrate.run(dyn.runtime)
    assert "related_due_backfill" not in writes and "memory_occurred_backfill" in writes
