"""One source of truth per rule: the decay and forget jobs, run on the real server over generated memories
(each example its own tenant), must leave every memory exactly as :mod:`graphmem.model.lifecycle` says.

Removing any exemption from the jobs' Cypher (P0/common in decay or forgetting, retained, core blocks, the
minimum age counted from ``recorded_at``, capacity forgetting's of the statements a current fact derives
from), or any factor (the five salience factors, interference) makes one of these examples fail; the soft
forget's exemption of those statements is pinned by ``tests/test_dynamics_evidence.py``, and the newer
memories it waits for (``forget_min_newer``, drawn 0-8 here) by ``tests/test_dynamics_absence.py`` (these
examples seldom draw one below forget's thresholds).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import disposable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMemory
from graphmem.model import anchors
from graphmem.model import lifecycle as spec
from graphmem.model.dynamics import FACTORS, DynamicsParams
from graphmem.store.queries import expand

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
PRIORITIES = ["common", "P0", "P1", "P2", "P3"]
TYPES = ["episodic", "semantic", "procedural", "preference"]


def _hours(lo: int, hi: int) -> st.SearchStrategy[timedelta]:
    return st.integers(lo, hi).map(lambda h: timedelta(hours=h, seconds=17))


@st.composite
def memory_state(draw: st.DrawFn) -> spec.MemoryState:
    created = NOW - draw(_hours(0, 24 * 400))
    recorded = draw(st.one_of(st.none(), _hours(0, 24 * 300).map(lambda d: created + d)))
    anchor = recorded or created
    accessed = draw(st.one_of(st.none(), _hours(0, 24 * 60).map(lambda d: anchor + d)))
    updated = draw(st.one_of(st.none(), _hours(0, 24 * 60).map(lambda d: anchor + d)))
    factor = st.one_of(st.none(), st.floats(0, 1))
    factors = {f: draw(factor) for f in FACTORS}
    status = draw(st.sampled_from(["active", "active", "weak", "dormant", "forgotten"]))
    return spec.MemoryState(
        created_at=created,
        recorded_at=recorded,
        memory_type=draw(st.sampled_from(TYPES)),
        priority=draw(st.sampled_from(PRIORITIES)),
        status=status,
        strength=draw(st.floats(0, 4)),
        retention=draw(st.floats(0, 1)),
        access_count=draw(st.integers(0, 20)),
        last_accessed_at=accessed,
        strength_updated_at=updated,
        factors={k: v for k, v in factors.items() if v is not None},
        rivalry=draw(st.sampled_from([0.0, 0.0, 0.86, 0.97])),
        core_block=draw(st.booleans()) and draw(st.booleans()),
        retained=draw(st.booleans()) and draw(st.booleans()),
        backs_fact=draw(st.booleans()) and draw(st.booleans()),
        forgotten_at=NOW - draw(_hours(0, 24 * 60)) if status == "forgotten" else None,
        summarized_by=draw(st.sampled_from([None, None, None, "summary-1"])),
        summary=draw(st.booleans()) and draw(st.booleans()),
        stored=draw(st.one_of(st.none(), _coefficients)),
        decay_due=draw(
            st.sampled_from(
                [anchors.DUE_NOW, None, NOW - timedelta(hours=3), NOW + timedelta(days=2), anchors.NEVER]
            )
        ),
    )


_coefficients = st.builds(
    anchors.Coefficients,
    retention_scale=st.floats(0, 1.5),
    retention_rate=st.floats(0, 0.2),
    strength_rate=st.floats(0, 1),
    strength_floor=st.sampled_from([0.0, 0.5, 1.0]),
)


@st.composite
def tenant(draw: st.DrawFn) -> tuple[list[spec.MemoryState], list[tuple[int, int, float]]]:
    states = draw(st.lists(memory_state(), min_size=2, max_size=14))
    pairs = st.tuples(st.integers(0, len(states) - 1), st.integers(0, len(states) - 1), st.floats(0, 1))
    edges = [(a, b, w) for a, b, w in draw(st.lists(pairs, max_size=10)) if a != b]
    return states, edges


def _store(
    mem: GraphMemory, user: str, states: list[spec.MemoryState], edges: list[tuple[int, int, float]]
) -> None:
    rows = [
        {
            "i": i,
            "core": s.core_block,
            "props": {
                "id": f"{user}-{i}",
                "user_id": user,
                "content": f"memory {i}",
                "created_at": s.created_at,
                "recorded_at": s.recorded_at,
                "memory_type": s.memory_type,
                "priority": s.priority,
                "status": s.status,
                "layer": "working",
                "strength": s.strength,
                "retention": s.retention,
                "access_count": s.access_count,
                "last_accessed_at": s.last_accessed_at,
                "strength_updated_at": s.strength_updated_at,
                "retained": s.retained,
                "forgotten_at": s.forgotten_at,
                "summarized_by": s.summarized_by,
                "is_summary": True if s.summary else None,
                "rivalry": s.rivalry or None,
                "decay_due": s.decay_due,
                **({} if s.stored is None else s.stored.__dict__),
                **s.factors,
            },
        }
        for i, s in enumerate(states)
    ]
    mem.runtime.store.run_statement(
        "UNWIND $rows AS row CREATE (m:Memory) SET m = row.props "
        "FOREACH (_ IN CASE WHEN row.core THEN [1] ELSE [] END | SET m:CoreBlock)",
        {"rows": rows},
    )
    # a current fact derives from each memory that backs one; every other odd one backs a superseded fact
    # (which protects nothing: the statement of an old value may be forgotten)
    facts = [
        {"m": f"{user}-{i}", "status": "current" if s.backs_fact else "superseded"}
        for i, s in enumerate(states)
        if s.backs_fact or i % 2
    ]
    mem.runtime.store.run_statement(
        "UNWIND $facts AS f MATCH (m:Memory {id: f.m}) CREATE (x:Fact)-[:DERIVED_FROM]->(m) "
        "SET x.id = f.m + '-fact', x.user_id = $u, x.key = 'k' + f.m, x.value = 'v', x.status = f.status, "
        "x.expired_at = CASE f.status WHEN 'current' THEN null ELSE $now END",
        {"facts": facts, "u": user, "now": NOW - timedelta(days=1)},
    )
    mem.runtime.store.run_statement(
        "UNWIND $edges AS e MATCH (a:Memory {id: e.a}), (b:Memory {id: e.b}) "
        "CREATE (a)-[:RELATED_TO {weight: e.w, weight_base: e.w, weight_updated_at: $now}]->(b)",
        {"edges": [{"a": f"{user}-{a}", "b": f"{user}-{b}", "w": w} for a, b, w in edges], "now": NOW},
    )


def _stored(mem: GraphMemory, user: str) -> dict[str, dict[str, Any]]:
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN m {.*} AS m", {"u": user})
    return {r["m"]["id"]: r["m"] for r in rows}


NOW_VALUES = expand(
    "MATCH (m:Memory) WHERE m.user_id = $u "
    "RETURN m.id AS id, {{retention_now(m, $now)}} AS retention, {{strength_now(m, $now)}} AS strength"
)


def _now_values(mem: GraphMemory, user: str) -> dict[str, tuple[float, float]]:
    """Retention and strength at NOW as every reader derives them (the shared Cypher fragments)."""
    rows = mem.query(NOW_VALUES, {"u": user, "now": NOW})
    return {r["id"]: (r["retention"], r["strength"]) for r in rows}


def _weights(i: int, edges: list[tuple[int, int, float]]) -> tuple[float, ...]:
    return tuple(w for a, b, w in edges if i in (a, b))


def _check_derived(got: dict[str, Any], retention: float, strength: float) -> None:
    """The Cypher fragments and the pure functions derive the same values from the same stored properties."""
    assert retention == pytest.approx(anchors.retention_now(got, NOW), rel=1e-9, abs=1e-12), got
    assert strength == pytest.approx(anchors.strength_now(got, NOW), rel=1e-9, abs=1e-12), got


def _check_decayed(
    s: spec.MemoryState, want: spec.Decayed, got: dict[str, Any], retention: float, strength: float
) -> None:
    assert retention == pytest.approx(want.retention, rel=1e-9, abs=1e-12), (s, want)
    assert strength == pytest.approx(want.strength, rel=1e-9, abs=1e-12), (s, want)
    assert got["status"] == want.status, (s, want)
    assert want.coefficients is not None
    for name, value in want.coefficients.__dict__.items():
        assert got[name] == pytest.approx(value, rel=1e-9, abs=1e-12), (name, s, want)
    assert (got.get("strength_updated_at") == NOW) == want.strength_moved or s.strength_updated_at == NOW
    if not want.strength_moved:
        assert got["strength"] == s.strength, (s, want)
    if want.due is None:
        assert got["decay_due"] == anchors.NEVER, (s, want)
    else:
        assert abs((got["decay_due"] - want.due).total_seconds()) <= 2.0, (s, want, got["decay_due"])


def _use(mem: GraphMemory, params: DynamicsParams) -> None:
    cfg = mem.automation.get_config()
    mem.automation.set_config(cfg.model_copy(update={"dynamics": params}))


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)
@given(data=tenant(), capacity=st.integers(0, 10), min_newer=st.integers(0, 8))
def test_decay_and_forget_jobs_match_the_specification(
    dyn: GraphMemory,
    data: tuple[list[spec.MemoryState], list[tuple[int, int, float]]],
    capacity: int,
    min_newer: int,
) -> None:
    states, edges = data
    params = DynamicsParams(capacity_per_user=capacity, forget_min_newer=min_newer)
    _use(dyn, params)
    user = disposable(f"test-{uuid.uuid4()}")
    _store(dyn, user, states, edges)
    before = _stored(dyn, user)
    assert dyn.jobs.run("decay", user_id=user, now=NOW).status == "success"
    after, now_values = _stored(dyn, user), _now_values(dyn, user)
    decayed: list[spec.MemoryState] = []
    for i, s in enumerate(states):
        s = spec.MemoryState(**{**s.__dict__, "association_weights": _weights(i, edges)})
        mid = f"{user}-{i}"
        props, (retention, strength) = after[mid], now_values[mid]
        _check_derived(props, retention, strength)
        evaluated = s.decay_due is None or s.decay_due <= NOW  # no decay_due: never evaluated (migration)
        want = spec.decay(s, NOW, params) if evaluated else None
        if want is None:  # left alone: a due memory that is not live is only marked never due
            lost = {"decay_due"} if evaluated else set()
            assert {k: v for k, v in props.items() if k not in lost} == {
                k: v for k, v in before[mid].items() if k not in lost
            }, s
            assert not evaluated or props["decay_due"] == anchors.NEVER
        else:
            _check_decayed(s, want, props, retention, strength)
        decayed.append(
            spec.MemoryState(
                **{**s.__dict__, "retention": retention, "strength": strength, "status": props["status"]}
            )
        )
    # only what moved is written: a rerun at the same clock touches no memory
    assert dyn.jobs.run("decay", user_id=user, now=NOW).counts["memories"] == 0
    assert _stored(dyn, user) == after
    assert dyn.jobs.run("forget", user_id=user, now=NOW).status == "success"
    final = _stored(dyn, user)
    soft = {
        i for i, s in enumerate(decayed) if spec.forgets(s, NOW, params, spec.newer_count(s, decayed, NOW))
    }
    hard = {i for i, s in enumerate(decayed) if spec.hard_deletes(s, NOW, params)}
    remaining = [
        spec.MemoryState(**{**s.__dict__, "status": "forgotten" if i in soft else s.status})
        for i, s in enumerate(decayed)
    ]
    taken = spec.capacity_victims(remaining, params)
    by_capacity = set()
    for i, s in enumerate(decayed):
        got = final.get(f"{user}-{i}")
        if i in hard:
            assert got is None, ("should be deleted", s)
            continue
        assert got is not None, ("should not be deleted", s)
        if i in soft:
            assert got["status"] == "forgotten" and got["forgotten_reason"] == "decayed", s
        elif got["status"] == "forgotten" and s.status != "forgotten":
            assert got["forgotten_reason"] == "capacity" and spec.capacity_candidate(remaining[i]), s
            by_capacity.add(i)
        else:
            assert got["status"] == s.status, s
    assert len(by_capacity) == taken
    kept = [i for i, s in enumerate(remaining) if spec.capacity_candidate(s) and i not in by_capacity]
    for v in by_capacity:  # the weakest go first
        assert all(spec.capacity_key(remaining[v]) <= spec.capacity_key(remaining[k]) for k in kept)
    dyn._rt.store.run_statement("MATCH (m:Memory) WHERE m.user_id = $u DETACH DELETE m", {"u": user})
    dyn._rt.store.run_statement("MATCH (f:Fact) WHERE f.user_id = $u DETACH DELETE f", {"u": user})


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)
@given(
    drawn=st.lists(memory_state(), min_size=2, max_size=12),
    gaps=st.lists(st.integers(1, 25), min_size=3, max_size=6),
)
def test_due_driven_runs_give_what_a_nightly_recompute_would(
    dyn: GraphMemory, drawn: list[spec.MemoryState], gaps: list[int]
) -> None:
    """Runs spaced by days evaluate only due memories, yet every status, retention and strength after each
    run is what recomputing every memory at that clock would give (decay_due is never late)."""
    _use(dyn, DynamicsParams())
    fresh = {"stored": None, "decay_due": None, "core_block": False, "retained": False, "backs_fact": False}
    states = [
        spec.MemoryState(**{**s.__dict__, **fresh, "status": s.status if s.status != "forgotten" else "weak"})
        for s in drawn
    ]
    user = disposable(f"test-{uuid.uuid4()}")
    _store(dyn, user, states, [])
    now, evaluated = NOW, []
    for gap in gaps:
        now += timedelta(days=gap)
        evaluated.append(dyn.jobs.run("decay", user_id=user, now=now).counts["memories"])
        after = _stored(dyn, user)
        rows = dyn.query(NOW_VALUES, {"u": user, "now": now})
        for row in rows:
            s = states[int(row["id"].rsplit("-", 1)[1])]
            want = spec.decay(s, now, DynamicsParams())
            assert want is not None
            assert after[row["id"]]["status"] == want.status, (s, now)
            assert row["retention"] == pytest.approx(want.retention, rel=1e-9, abs=1e-12), (s, now)
            assert row["strength"] == pytest.approx(want.strength, rel=1e-9, abs=1e-12), (s, now)
    assert evaluated[0] == len(states)  # the migration: every memory once
    dyn._rt.store.run_statement("MATCH (m:Memory) WHERE m.user_id = $u DETACH DELETE m", {"u": user})
    dyn._rt.store.run_statement("MATCH (f:Fact) WHERE f.user_id = $u DETACH DELETE f", {"u": user})
