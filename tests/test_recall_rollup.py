"""Recall-event rollups: the consolidate job folds raw recall events older than ``recall_rollup_days``
into one rollup per user and day exactly as :mod:`graphmem.model.recall_usage` says, and promotion then
promotes the same memories from the rollups as from the raw events (run on the real server over generated
events: one tenant keeps its raw events, a copy of it is compacted)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import disposable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMemory, Settings
from graphmem.model import recall_usage as spec
from graphmem.model.dynamics import DynamicsParams

NOW = datetime(2025, 6, 1, 23, tzinfo=UTC)  # events fall before noon: a day is wholly in or out of a window
MEMORIES = [f"m{i}" for i in range(6)]
PARAMS = DynamicsParams(promote_min_sessions=2, promote_min_contexts=1, promote_session_share=0.2)


@pytest.fixture(scope="module")
def dyn(server: Any, embedder: Any) -> Iterator[GraphMemory]:
    with GraphMemory.connect(
        settings=Settings(automation_config_id=disposable(f"test-{uuid.uuid4()}")), embedder=embedder
    ) as memory:
        memory.init()
        cfg = memory.automation.get_config()
        memory.automation.set_config(cfg.model_copy(update={"dynamics": PARAMS}))
        yield memory


@st.composite
def event(draw: st.DrawFn) -> dict[str, Any]:
    at = NOW - timedelta(days=draw(st.integers(1, 100))) - timedelta(hours=draw(st.integers(12, 23)))
    return {
        "at": at.replace(minute=draw(st.integers(0, 59))),
        # none: an event written without ids (by hand), which must not cost the day's other events theirs
        "memory_ids": draw(st.lists(st.sampled_from(MEMORIES), min_size=0, max_size=3, unique=True)),
        "session_id": draw(st.sampled_from([None, None, "s1", "s2"])),
        "context": draw(st.sampled_from([None, None, "chat"])),
        "intent": draw(st.sampled_from([None, "entity", "temporal", "default"])),
        "latency_ms": draw(
            st.sampled_from([None, 12.5, 40, "slow"])
        ),  # a text written by hand: not a latency
        # context() records its tokens; a float or a text written by hand is not a count
        "context_tokens_used": draw(st.sampled_from([None, None, 0, 180, 1200, 3.5, "many", 2**63 - 1, -5])),
        "context_tokens_dropped": draw(st.sampled_from([None, None, 0, 40, "none"])),
    }


def _tenant(mem: GraphMemory, user: str, events: list[dict[str, Any]]) -> None:
    mem.runtime.store.run_statement(
        "UNWIND $ids AS id CREATE (m:Memory {id: $u + '-' + id, user_id: $u, content: id, status: 'active', "
        "priority: 'P2', memory_type: 'episodic', created_at: $now})",
        {"ids": MEMORIES, "u": user, "now": NOW - timedelta(days=200)},
    )
    rows = [
        {
            **e,
            "id": str(uuid.uuid4()),
            "user_id": user,
            "memory_ids": [f"{user}-{m}" for m in e["memory_ids"]] or None,  # None: the property is not set
        }
        for e in events
    ]
    mem.runtime.store.run_statement("UNWIND $rows AS row CREATE (r:RecallEvent) SET r = row", {"rows": rows})


def _records(mem: GraphMemory, user: str) -> list[spec.RecallRecord]:
    rows = mem.query("MATCH (r:RecallEvent) WHERE r.user_id = $u RETURN r {.*} AS r", {"u": user})
    return [
        spec.RecallRecord(
            user_id=user,
            at=r["r"]["at"],
            memory_ids=tuple(r["r"].get("memory_ids") or ()),
            session_id=r["r"].get("session_id"),
            context=r["r"].get("context"),
            intent=r["r"].get("intent"),
            rollup=bool(r["r"].get("rollup")),
            entries=frozenset(r["r"].get("entries") or ()),
            events=int(r["r"].get("events") or 1),
            latencies=_latencies(r["r"]),
            context_tokens_used=spec.token_count(r["r"].get("context_tokens_used")),
            context_tokens_dropped=spec.token_count(r["r"].get("context_tokens_dropped")),
        )
        for r in rows
    ]


def _latencies(row: dict[str, Any]) -> tuple[float, ...]:
    """A rollup's latencies, or a raw event's latency_ms when it is a number."""
    if row.get("rollup"):
        return tuple(sorted(row.get("latencies") or ()))
    value = row.get("latency_ms")
    return (float(value),) if isinstance(value, int | float) and not isinstance(value, bool) else ()


def _shape(records: list[spec.RecallRecord]) -> set[tuple[Any, ...]]:
    return {
        (
            r.rollup,
            r.at,
            tuple(sorted(r.memory_ids)),
            r.entries,
            r.events,
            r.latencies,
            r.context_tokens_used,
            r.context_tokens_dropped,
        )
        for r in records
    }


def _common(mem: GraphMemory, user: str) -> set[str]:
    rows = mem.query(
        "MATCH (m:Memory) WHERE m.user_id = $u AND m.priority = 'common' RETURN m.content AS id", {"u": user}
    )
    return {r["id"] for r in rows}


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)
@given(events=st.lists(event(), min_size=1, max_size=25))
def test_rollups_match_the_specification_and_promote_the_same(
    dyn: GraphMemory, events: list[dict[str, Any]]
) -> None:
    raw, compacted = disposable(f"test-{uuid.uuid4()}"), disposable(f"test-{uuid.uuid4()}")
    _tenant(dyn, raw, events)
    _tenant(dyn, compacted, events)
    before = _records(dyn, compacted)
    run = dyn.jobs.run("consolidate", user_id=compacted, now=NOW)
    assert run.status == "success", run.error
    want, counters = spec.compact(before, NOW, PARAMS)
    got = _records(dyn, compacted)
    assert _shape(got) == _shape(want)
    assert run.counts["recall_events_compacted"] == sum(1 for r in before if spec.compactable(r, NOW, PARAMS))
    stored = dyn.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN m.id AS id, m.recalls_compacted AS n", {"u": compacted}
    )
    assert {r["id"]: r["n"] or 0 for r in stored} == {
        f"{compacted}-{m}": counters[f"{compacted}-{m}"] for m in MEMORIES
    }
    # compacting again changes nothing
    assert dyn.jobs.run("consolidate", user_id=compacted, now=NOW).counts["recall_events_compacted"] == 0
    for user in (raw, compacted):
        assert dyn.jobs.run("promote", user_id=user, now=NOW).status == "success"
    sessions, use = spec.usage(before, compacted, NOW, PARAMS)
    expected = {m.rsplit("-", 1)[-1] for m, u in use.items() if spec.promotes(sessions, u, PARAMS)}
    assert _common(dyn, raw) == _common(dyn, compacted) == expected


def test_an_existing_rollup_of_the_day_is_extended(dyn: GraphMemory, user_id: str) -> None:
    day = NOW - timedelta(days=20)
    first = {
        "at": day.replace(hour=1),
        "memory_ids": ["m0"],
        "session_id": None,
        "context": None,
        "intent": "entity",
        "context_tokens_used": 100,
    }
    later = {**first, "at": day.replace(hour=2), "memory_ids": ["m1"], "context_tokens_dropped": 7}
    _tenant(dyn, user_id, [first])
    dyn.jobs.run("consolidate", user_id=user_id, now=NOW)
    _tenant_events = [{**later, "id": "x", "user_id": user_id, "memory_ids": [f"{user_id}-m1"]}]
    dyn.runtime.store.run_statement(
        "UNWIND $rows AS row CREATE (r:RecallEvent) SET r = row", {"rows": _tenant_events}
    )
    dyn.jobs.run("consolidate", user_id=user_id, now=NOW)
    got = _records(dyn, user_id)
    assert len(got) == 1 and got[0].rollup and got[0].events == 2
    assert got[0].memory_ids == (f"{user_id}-m0", f"{user_id}-m1") and got[0].at == day.replace(hour=2)
    assert (got[0].context_tokens_used, got[0].context_tokens_dropped) == (200, 7)


def test_the_queries_bound_token_counts_as_the_specification_does() -> None:
    """compact_recalls and the value panel's weekly query carry the count bound as a literal (2^40)."""
    from graphmem.store.queries import query

    for name in ("compact_recalls", "stats_recalls_weekly"):
        assert f"< {spec.TOKENS_MAX}" in query(name), name
