"""The derived-value model (graphmem.model.anchors), without a server: the next status change it computes is
never late (the decay job would miss a status change) and rarely early; derived values never make a read fail.
The Cypher twins are checked against these functions in tests/test_dynamics_spec.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from cypher_text import SET_CLAUSE
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.model import anchors
from graphmem.model.dynamics import DynamicsParams, status_for
from graphmem.store.queries import query, query_names

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
PARAMS = DynamicsParams()


@st.composite
def evaluated(draw: st.DrawFn) -> tuple[dict[str, Any], anchors.Coefficients]:
    """A memory as the decay job leaves it at NOW: anchors in the past, coefficients stored."""
    recorded = NOW - timedelta(seconds=draw(st.integers(0, 400 * 86400)))
    accessed = draw(st.one_of(st.none(), st.integers(0, 60 * 86400)))
    c = anchors.Coefficients(
        retention_scale=draw(st.floats(0.05, 1.5)),
        retention_rate=draw(st.floats(0, 0.2)),
        strength_rate=draw(st.floats(0, 1)),
        strength_floor=draw(st.sampled_from([0.0, 0.5, 1.0])),
    )
    props = {
        "recorded_at": recorded,
        "last_accessed_at": None if accessed is None else min(NOW, recorded + timedelta(seconds=accessed)),
        "strength": draw(st.floats(0, 4)),
        "priority": draw(st.sampled_from(["P1", "P2", "P3"])),
        **c.__dict__,
    }
    return props, c


def _status(props: dict[str, Any], at: datetime) -> str:
    return status_for(anchors.retention_now(props, at), anchors.strength_now(props, at), PARAMS, "P2")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(memory=evaluated(), fractions=st.lists(st.floats(0, 1), min_size=1, max_size=8))
def test_the_status_does_not_change_before_it_is_due(
    memory: tuple[dict[str, Any], anchors.Coefficients], fractions: list[float]
) -> None:
    props, c = memory
    status = _status(props, NOW)
    due = anchors.due(props, NOW, c, status, PARAMS)
    if due is None:  # nothing ahead: dormant, or both values settle above the next thresholds
        later = NOW + timedelta(days=anchors.HORIZON_DAYS / 2)
        assert status == "dormant" or _status(props, later) == status
        return
    assert due >= NOW - timedelta(seconds=1)
    for f in fractions:
        at = NOW + (due - NOW - timedelta(seconds=1)) * f
        if at > NOW:
            assert _status(props, at) == status, (props, due, at)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(memory=evaluated())
def test_the_due_time_is_close_to_the_change(memory: tuple[dict[str, Any], anchors.Coefficients]) -> None:
    """At most a day early: the job evaluates such a memory at most once more before its status moves."""
    props, c = memory
    status = _status(props, NOW)
    due = anchors.due(props, NOW, c, status, PARAMS)
    if due is None or due >= NOW + timedelta(days=anchors.HORIZON_DAYS - 1):
        return
    assert _status(props, max(due, NOW) + timedelta(days=1)) != status, (props, due)


def test_missing_or_odd_anchors_read_as_not_decayed_yet() -> None:
    assert anchors.retention_now({}, NOW) == 1.0 and anchors.strength_now({}, NOW) == 1.0
    legacy = {"retention": 0.4, "strength": 2.5, "recorded_at": NOW - timedelta(days=90)}
    assert anchors.retention_now(legacy, NOW) == 0.4 and anchors.strength_now(legacy, NOW) == 2.5
    odd = {"retention_scale": 0.5, "strength_rate": 0.1, "strength": "x", "recorded_at": "yesterday"}
    assert 0.0 <= anchors.retention_now(odd, NOW) <= 1.0 and anchors.strength_now(odd, NOW) == 1.0


INPUTS = (
    "strength|access_count|priority|memory_type|emotion|presentation|coherence|serial|depth|rivalry"
    "|last_accessed_at|weight_base"
)
_ASSIGNED = re.compile(rf"\b\w+\.({INPUTS})\s*=(?!=)")
_EDGES = re.compile(r"(CREATE|MERGE)\s*\([^)]*\)-\[\w*:RELATED_TO|DELETE")
NOT_INPUTS = {
    "dynamics_decay_edges": "writes the decayed weight (and the base it started from, unchanged)",
    "associate_write_pairs": "its caller marks every linked memory due once, after the pairs "
    "(associate_mark,"
    " graphmem.dynamics.steps._associate_full; test_dynamics checks each linked memory is due)",
}
"""Formation writes decay_due among the properties it creates a memory with (graphmem.formation.plan)."""


def test_every_writer_of_a_decay_input_makes_the_memory_due() -> None:
    """A statement that writes a decay input (or makes or deletes a RELATED_TO edge) sets decay_due, else
    the decay job would keep the memory on coefficients computed from stale inputs."""
    offenders = []
    for name in query_names():
        if "/" in name or name in NOT_INPUTS:
            continue
        text = query(name)
        edges = "RELATED_TO" in text and _EDGES.search(text)
        writes = any(_ASSIGNED.search(body) for body in SET_CLAUSE.findall(text)) or edges
        if writes and "decay_due" not in text:
            offenders.append(name)
    assert offenders == []
