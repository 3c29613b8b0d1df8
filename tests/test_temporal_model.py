"""Bi-temporal invariants of fact versions, property-tested on the pure planner and interval logic.

A random sequence of writes (new values, repeats, supersessions, back-dated values placed in the key's past,
less trusted ones kept as contradictions) and retractions (withdrawn, or ended at a valid_to) is applied to an
in-memory version list exactly as ``factbase.apply`` and ``factbase.retract_fact`` write it; then, for one
fact key: the valid intervals of the versions known at any time never overlap, at most one version holds at
any (as_of, known_at), and later writes never change what an earlier ``known_at`` returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.model import facts
from graphmem.model.fact_versions import Known
from graphmem.model.facts import CurrentFact, FactInput, KeyState
from graphmem.models import FactType, Source
from graphmem.temporal import reads as temporal

T0 = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class Row:
    id: str
    value: str
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    expired_at: datetime | None
    status: str
    source: str
    version: int
    revoked_at: datetime | None = None
    memory_id: str | None = None


def apply(rows: list[Row], new: FactInput | list[FactInput], now: datetime) -> None:
    """What factbase.apply and its Cypher write, on a list (one input, or a batch of one key's)."""
    batch = new if isinstance(new, list) else [new]
    new = batch[0]
    current = [r for r in rows if r.status == "current" and r.expired_at is None]
    currents = {
        new.identity: CurrentFact(c.id, c.value, c.valid_from or now, Source(c.source), c.version)
        for c in current
    }
    known = [r for r in rows if r.status != "conflicted" and r.revoked_at is None]
    spans = [(r, temporal.known_interval(r, now)) for r in rows]
    state = KeyState(
        floor=max(
            (r.valid_to for r in known if r.valid_from and r.valid_to and r.valid_to > r.valid_from),
            default=None,
        )
        if not current
        else None,
        last_version=max((r.version for r in rows), default=0),
        known=tuple(  # the versions valid somewhere as known now, as fact_current reads them
            Known(r.id, r.value, i[0], i[1], Source(r.source), r.recorded_at or now, fields=vars(r))
            for r, i in spans
            if i is not None
        ),
    )
    plan = facts.plan(batch, currents, now, {new.identity: state})
    for r in plan.create:
        rows.append(
            Row(
                r["id"],
                r["value"],
                r["valid_from"],
                r.get("valid_to"),
                now,
                now if r.get("expire") else None,
                r["status"],
                r["source"],
                r["version"],
            )
        )
    for c in plan.close:
        for row in rows:
            if row.id == c["id"]:
                row.valid_to, row.expired_at, row.status = c["valid_to"], now, "superseded"
    for row in rows:
        if row.id in plan.revoked:
            row.revoked_at = now


def retract(rows: list[Row], valid_to: datetime | None, now: datetime) -> None:
    """What factbase.retract_fact and its Cypher write, on a list (a no-op without a current version)."""
    current = [r for r in rows if r.status == "current" and r.expired_at is None]
    if not current:
        return
    c = max(current, key=lambda r: r.recorded_at or now)
    try:
        plan = facts.plan_retraction(vars(c), valid_to=valid_to)
    except ValueError:
        return  # valid_to not after valid_from: refused, nothing written
    if plan.create is not None:
        r = plan.create
        rows.append(
            Row(
                r["id"],
                r["value"],
                r["valid_from"],
                r["valid_to"],
                now,
                None,
                r["status"],
                r["source"],
                r["version"],
            )
        )
    c.expired_at, c.status = now, facts.RETRACTED


op = st.tuples(
    st.sampled_from(["Paris", "Berlin", "Rome", "paris!", "RETRACT"]),  # RETRACT: retract_fact
    st.integers(min_value=-30, max_value=60),  # valid_from (valid_to) offset in days from the write
    st.booleans(),  # dated: with valid_from (valid_to), else None
    st.sampled_from([Source.USER, Source.TOOL, Source.AGENT]),
    st.integers(min_value=0, max_value=3),  # days between this write and the previous one (0: same time)
)


def probe_times(rows: list[Row]) -> list[datetime]:
    times = {T0 - timedelta(days=400), T0 + timedelta(days=800)}
    for r in rows:
        for t in (r.valid_from, r.valid_to, r.recorded_at, r.expired_at):
            if t is not None:
                times.update({t, t - timedelta(seconds=1), t + timedelta(seconds=1)})
    return sorted(times)


def answers(
    rows: list[Row], known_at: datetime, as_ofs: list[datetime]
) -> list[tuple[str, str, object] | None]:
    out: list[tuple[str, str, object] | None] = []
    for as_of in as_ofs:
        v = temporal.pick(rows, as_of, known_at)
        out.append(None if v is None else (v.id, v.value, temporal.known_interval(v, known_at)))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(op, min_size=1, max_size=12))
def test_bitemporal_invariants(ops: list[tuple[str, int, bool, Source, int]]) -> None:
    rows: list[Row] = []
    now = T0
    seen: list[tuple[datetime, list[datetime], list[tuple[str, str, object] | None]]] = []
    for value, offset, dated, source, gap in ops:
        now = now + timedelta(days=gap, microseconds=1)
        valid_from = now + timedelta(days=offset) if dated else None
        if value == "RETRACT":
            retract(rows, valid_from, now)
        else:
            apply(rows, FactInput("u", "city", value, FactType.PROFILE, None, valid_from, source), now)
        # What this moment's knowledge says, to compare with the end state.
        grid = probe_times(rows)
        seen.append((now, grid, answers(rows, now, grid)))

    for known_at in probe_times(rows):
        known = [i for r in rows if (i := temporal.known_interval(r, known_at)) is not None]
        assert not temporal.overlapping(known), known_at
        for as_of in probe_times(rows):
            assert sum(temporal.holds_at(r, as_of, known_at) for r in rows) <= 1

    for known_at, grid, before in seen:
        assert answers(rows, known_at, grid) == before


late = st.tuples(
    st.sampled_from(["Paris", "Berlin", "Rome", "Oslo"]),
    st.integers(min_value=-60, max_value=0),  # valid_from offset in days from the write: often late
    st.sampled_from([Source.USER, Source.AGENT]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(late, min_size=1, max_size=4), min_size=1, max_size=5))
def test_batches_of_late_values_keep_the_invariants(batches: list[list[tuple[str, int, Source]]]) -> None:
    """Several values of one key per write, most dated in the past: every version written whole, valid
    intervals known at any time never overlap, and later writes never change an earlier known_at's answer
    (the review of round 56 found a batch's second late value copying a version of the same batch without its
    fields)."""
    rows: list[Row] = []
    now = T0
    seen: list[tuple[datetime, list[datetime], list[tuple[str, str, object] | None]]] = []
    for batch in batches:
        now = now + timedelta(days=1)
        inputs = [
            FactInput("u", "city", value, FactType.PROFILE, None, now + timedelta(days=offset), source)
            for value, offset, source in batch
        ]
        apply(rows, inputs, now)
        assert all(r.value and r.source and r.valid_from for r in rows)
        grid = probe_times(rows)
        seen.append((now, grid, answers(rows, now, grid)))
    for known_at in probe_times(rows):
        known = [i for r in rows if (i := temporal.known_interval(r, known_at)) is not None]
        assert not temporal.overlapping(known), known_at
    for known_at, grid, before in seen:
        assert answers(rows, known_at, grid) == before


def test_the_move_example() -> None:
    """Recorded on March 5 that the user moved on March 1."""
    d = lambda day: datetime(2026, 3, day, tzinfo=UTC)  # noqa: E731
    rows: list[Row] = []
    apply(
        rows,
        FactInput("u", "city", "Lyon", FactType.PROFILE, valid_from=datetime(2025, 1, 1, tzinfo=UTC)),
        datetime(2025, 1, 1, tzinfo=UTC),
    )
    apply(rows, FactInput("u", "city", "Paris", FactType.PROFILE, valid_from=d(1)), d(5))
    assert (v := temporal.pick(rows, d(3), d(4))) is not None and v.value == "Lyon"
    assert (v := temporal.pick(rows, d(3), d(6))) is not None and v.value == "Paris"
    assert temporal.pick(rows, d(3), datetime(2024, 1, 1, tzinfo=UTC)) is None


def test_retraction_example() -> None:
    """Lyon from January; on March 10 the user says it stopped on March 1 (valid_to), then retracts a
    wrong later value entirely."""
    d = lambda month, day: datetime(2026, month, day, tzinfo=UTC)  # noqa: E731
    rows: list[Row] = []
    apply(rows, FactInput("u", "city", "Lyon", FactType.PROFILE, valid_from=d(1, 1)), d(1, 1))
    retract(rows, d(3, 1), d(3, 10))
    assert [(r.status, r.version) for r in rows] == [("retracted", 1), ("ended", 2)]
    assert temporal.pick(rows, d(2, 1), d(3, 11)).value == "Lyon"  # type: ignore[union-attr]
    assert temporal.pick(rows, d(3, 2), d(3, 11)) is None
    assert temporal.pick(rows, d(3, 2), d(3, 9)).value == "Lyon"  # type: ignore[union-attr]  # known then
    apply(rows, FactInput("u", "city", "Nice", FactType.PROFILE, valid_from=d(2, 1)), d(3, 12))
    assert rows[-1].status == "conflicted"  # before the end of Lyon: kept, not overlapping
    apply(rows, FactInput("u", "city", "Nice", FactType.PROFILE, valid_from=d(4, 1)), d(4, 2))
    assert (rows[-1].status, rows[-1].version) == ("current", 4)
    retract(rows, None, d(4, 5))
    assert temporal.pick(rows, d(4, 3), d(4, 4)).value == "Nice"  # type: ignore[union-attr]
    assert temporal.pick(rows, d(4, 3), d(4, 6)) is None
    assert temporal.pick(rows, d(2, 1), d(4, 6)).value == "Lyon"  # type: ignore[union-attr]


def test_a_retraction_needs_a_valid_to_after_valid_from() -> None:
    row = {"id": "x", "valid_from": T0, "version": 1}
    try:
        facts.plan_retraction(row, valid_to=T0)
    except ValueError:
        pass
    else:
        raise AssertionError("an empty valid interval was accepted")
    assert facts.plan_retraction(row, valid_to=None).create is None


def test_overlapping() -> None:
    a, b, c = T0, T0 + timedelta(days=1), T0 + timedelta(days=2)
    assert not temporal.overlapping([(a, b), (b, None)])
    assert temporal.overlapping([(a, c), (b, None)])
    assert temporal.overlapping([(a, None), (b, c)])


def test_of_two_versions_recorded_together_the_later_started_holds() -> None:
    """One batch stated Leeds, a move planned for April and, before it, Ancoats: Leeds keeps its end (the
    plan's start), so on 20 March both hold as recorded, and the read picks Ancoats, as fact_at.cypher
    orders them (recorded_at, then valid_from), whatever order the versions come in."""
    d = lambda month, day: datetime(2026, month, day, tzinfo=UTC)  # noqa: E731
    t = d(3, 20)
    leeds = Row("l", "Leeds", d(1, 1), d(4, 1), t, t, "superseded", "user", 1)
    ancoats = Row("a", "Ancoats", d(3, 16), None, t, None, "current", "user", 3)
    for rows in ([leeds, ancoats], [ancoats, leeds]):
        assert (v := temporal.pick(rows, d(3, 20), d(3, 21))) is not None and v.value == "Ancoats"
