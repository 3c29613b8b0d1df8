"""Fact retraction on the real server: withdrawn or ended, history kept, audited, idempotent, through the
CLI; and random writes, supersessions and retractions checked against an independent in-memory model."""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from conftest import disposable
from fact_oracle import KeyModel
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from graphmem import FactNotFound, FactType, GraphMemory, Source, ValidationError
from graphmem.cli.main import app
from graphmem.model.facts import FactInput
from graphmem.server import LocalServer
from graphmem.temporal import facts as factbase
from graphmem.temporal import reads as temporal


def _tick() -> datetime:
    """A moment strictly between two writes."""
    time.sleep(0.01)
    at = datetime.now(UTC)
    time.sleep(0.01)
    return at


def test_withdrawn_fact_is_gone_from_later_knowledge_only(mem: GraphMemory, user_id: str) -> None:
    jan = datetime(2026, 1, 1, tzinfo=UTC)
    mem.facts.set(user_id, "employer", "Acme", valid_from=jan)
    before = _tick()
    retracted = mem.facts.retract(user_id, "employer", idempotency_key="r1")
    after = _tick()
    assert retracted.status == "retracted" and retracted.valid_to is None and retracted.expired_at is not None
    assert mem.facts.get(user_id, "employer") is None
    assert mem.facts.get(user_id, "employer", as_of=jan + timedelta(days=5), known_at=after) is None
    was = mem.facts.get(user_id, "employer", as_of=jan + timedelta(days=5), known_at=before)
    assert was is not None and was.value == "Acme" and was.status == "current"  # as it read then
    assert [(f.value, f.status) for f in mem.facts.history(user_id, "employer")] == [("Acme", "retracted")]
    # Idempotent: the repeat returns the first result, writes nothing, and one audit event carries the key.
    assert mem.facts.retract(user_id, "employer", idempotency_key="r1") == retracted
    events = [e for e in mem.temporal.audit_log(user_id=user_id) if e.action == "retract_fact"]
    assert len(events) == 1 and events[0].idempotency_key == "r1"
    assert events[0].target_ids == (retracted.id,) and events[0].version == 1
    # Nothing left to retract: a typed error, nothing written.
    with pytest.raises(FactNotFound):
        mem.facts.retract(user_id, "employer")
    with pytest.raises(FactNotFound):
        mem.facts.retract(user_id, "never-set")
    assert len(mem.facts.history(user_id, "employer")) == 1


def test_ended_fact_holds_until_valid_to(mem: GraphMemory, user_id: str) -> None:
    jan, mar = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 3, 1, tzinfo=UTC)
    mem.facts.set(user_id, "city", "Lyon", valid_from=jan)
    before = _tick()
    ended = mem.facts.retract(user_id, "city", valid_to=datetime(2026, 3, 1))  # naive: read as UTC
    after = _tick()
    assert (ended.status, ended.version, ended.valid_from, ended.valid_to) == ("ended", 2, jan, mar)
    assert mem.facts.get(user_id, "city") is None  # no current value any more
    assert mem.facts.get(user_id, "city", as_of=mar - timedelta(days=1)).value == "Lyon"  # type: ignore[union-attr]
    assert mem.facts.get(user_id, "city", as_of=mar) is None
    assert mem.facts.get(user_id, "city", as_of=mar + timedelta(days=9), known_at=before).value == "Lyon"  # type: ignore[union-attr]
    history = mem.facts.history(user_id, "city")
    assert [(f.status, f.version) for f in history] == [("retracted", 1), ("ended", 2)]
    snap = mem.temporal.snapshot(user_id, as_of=mar - timedelta(days=1), known_at=after)
    assert [n.properties["value"] for n in snap.nodes if n.label == "Fact"] == ["Lyon"]
    assert not [
        n for n in mem.temporal.snapshot(user_id, as_of=mar, known_at=after).nodes if n.label == "Fact"
    ]
    # A value valid before Lyon's end would overlap it: kept as a contradiction; after it, it is current.
    assert mem.facts.set(user_id, "city", "Nice", valid_from=mar - timedelta(days=10)).status == "conflicted"
    nice = mem.facts.set(user_id, "city", "Nice", valid_from=mar + timedelta(days=10))
    assert (nice.status, nice.version) == ("current", 4)
    assert mem.facts.get(user_id, "city").value == "Nice"  # type: ignore[union-attr]


def test_retraction_bad_input(mem: GraphMemory, user_id: str) -> None:
    jan = datetime(2026, 1, 1, tzinfo=UTC)
    mem.facts.set(user_id, "city", "Lyon", valid_from=jan)
    for bad in (jan, jan - timedelta(days=1)):
        with pytest.raises(ValidationError):
            mem.facts.retract(user_id, "city", valid_to=bad)
    with pytest.raises(ValidationError):
        mem.facts.retract(user_id, "city", valid_to="soon")  # type: ignore[arg-type]
    assert [f.status for f in mem.facts.history(user_id, "city")] == ["current"]  # nothing written
    with pytest.raises(FactNotFound):
        mem.facts.retract(f"nobody-{uuid.uuid4()}", "city")


def test_cli_retract(server: LocalServer, user_id: str) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["facts", "set", "team", "red", "-u", user_id]).exit_code == 0
    done = runner.invoke(app, ["facts", "retract", "team", "-u", user_id, "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["status"] == "retracted"
    again = runner.invoke(app, ["facts", "retract", "team", "-u", user_id])
    assert again.exit_code == 1 and "no current version" in again.output


T0 = datetime(2026, 1, 1, tzinfo=UTC)
op = st.tuples(
    # OFF: a plan called off; LATER: one put off to `offset` days later (at least one)
    # END: "I no longer ..." (said at the offset when dated)
    st.sampled_from(
        [
            "Paris",
            "Berlin",
            "Rome",
            "RETRACT",
            "OFF",
            "OFF Paris",
            "LATER",
            "LATER Rome",
            "END",
            "END Paris",
            "FIX Rome Paris",
            "FIX Paris Berlin",
            "REPLAN Rome Berlin",
        ]
    ),
    st.integers(min_value=-20, max_value=20),  # valid_from / valid_to offset in days from the write
    st.booleans(),  # dated (else None)
    st.sampled_from([Source.USER, Source.AGENT]),
    st.integers(min_value=0, max_value=3),  # days since the previous write
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(op, min_size=1, max_size=8))
# a plan replaced by an earlier plan, itself replaced before it started: the replaced plans must be valid
# nowhere, also at their own start (a stored start written back with its zone's name read as a later instant)
@example(
    ops=[
        ("Paris", 18, True, Source.USER, 0),
        ("Paris", 6, True, Source.USER, 0),
        ("Paris", -13, False, Source.USER, 0),
    ]
)
# a plan called off: the value it would have ended goes on from its date (a plan made when it was called off,
# which a value stated next, starting before that date, replaces); a call naming another value changes nothing
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("Berlin", 10, True, Source.USER, 0),
        ("OFF Paris", 0, False, Source.USER, 1),
        ("OFF", 0, False, Source.USER, 1),
        ("Rome", 3, True, Source.USER, 0),
    ]
)
# a plan put off: the value it would have ended holds until the new date; naming another value, or with
# nothing pending, it changes nothing
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("Berlin", 10, True, Source.USER, 0),
        ("LATER Rome", 5, False, Source.USER, 1),
        ("LATER", 20, False, Source.USER, 1),
        ("OFF", 0, False, Source.USER, 1),
        ("LATER Rome", 5, False, Source.USER, 1),
    ]
)
# a plan restated for the first of its own month is the same plan, said less precisely: it keeps its day
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("Berlin", 40, True, Source.USER, 0),
        ("Berlin", 31, True, Source.USER, 0),
    ]
)
# a put-off naming another value than a plan whose date has passed changes nothing
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("Berlin", 2, True, Source.USER, 0),
        ("LATER Rome", 4, False, Source.USER, 3),
    ]
)
# the value a called-off plan continues is no change: called off again, or stated again, it stays
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("Berlin", 10, True, Source.USER, 0),
        ("OFF", 0, False, Source.USER, 1),
        ("OFF", 0, False, Source.USER, 1),
        ("Paris", 0, False, Source.USER, 1),
        ("RETRACT", 0, False, Source.USER, 1),
    ]
)
# a plan that replaced an earlier-stated plan before its start, called off: the value both would have ended
# goes on (also after the first plan's date)
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("Berlin", 10, True, Source.USER, 0),
        ("Rome", 5, True, Source.USER, 1),
        ("OFF", 0, False, Source.USER, 1),
    ]
)
# a value said by mistake is never true and the right one holds from its start; a pending plan said by
# mistake is withdrawn and the right one planned for its date; naming another value, nothing changes
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("FIX Rome Paris", 0, False, Source.USER, 1),
        ("Berlin", 10, True, Source.USER, 0),
        ("FIX Paris Berlin", 0, False, Source.USER, 1),
        ("FIX Paris Berlin", 0, False, Source.USER, 1),
    ]
)
# the value a pending plan would replace ends before the plan starts: it ends then, the plan stands, and
# called off the plan continues nothing; an ending naming another value changes nothing
@example(
    ops=[
        ("Paris", 0, False, Source.USER, 0),
        ("Berlin", 10, True, Source.USER, 0),
        ("END Rome", 0, False, Source.USER, 1),
        ("END Paris", 0, False, Source.USER, 1),
        ("OFF", 0, False, Source.USER, 1),
        ("Rome", 0, False, Source.USER, 1),
    ]
)
# a plan's value changed keeps its date; the same words naming a value held (no plan) change nothing
@example(
    ops=[
        ("Berlin", 0, False, Source.USER, 0),
        ("REPLAN Rome Berlin", 0, False, Source.USER, 1),
        ("Paris", 10, True, Source.USER, 0),
        ("Berlin", 5, True, Source.USER, 1),
        ("REPLAN Rome Berlin", 0, False, Source.USER, 1),
    ]
)
# a value said by mistake after it replaced a plan before its start (hypothesis, round 42): the right one
# takes its place, the later record where it overlaps the value the plan had ended
@example(
    ops=[
        ("Rome", 0, False, Source.USER, 0),
        ("Paris", 1, True, Source.USER, 0),
        ("Berlin", 0, False, Source.USER, 0),
        ("FIX Paris Berlin", 0, False, Source.USER, 0),
    ]
)
def test_writes_and_retractions_match_an_independent_model(
    mem: GraphMemory, ops: list[tuple[str, int, bool, Source, int]]
) -> None:
    """Writes, supersessions and retractions at virtual times. At every probe (as_of, known_at) the server
    answers what an independent in-memory model of the operations answers (tests/fact_oracle.py: value,
    valid_from and valid_to as known then), what an earlier known_at returned never changes afterwards,
    and the versions the server stored never overlap in valid time as known at any time, except where a
    value replaced a plan before it started: the version the plan had ended keeps that end (a plan's start),
    and the later record holds where the two overlap."""
    user_id = disposable(f"test-{uuid.uuid4()}")
    model, now, seen = KeyModel(), T0, {}
    for value, offset, dated, source, gap in ops:
        now += timedelta(days=gap, seconds=1)
        when = now + timedelta(days=offset) if dated else None
        if value == "RETRACT":
            with contextlib.suppress(FactNotFound, ValidationError):  # nothing current, or a bad valid_to
                factbase.retract_fact(mem.runtime, user_id, "city", valid_to=when, now=now)
            model.retract(now, when)
        elif value.startswith("OFF"):  # "I'm not moving (to Paris) after all", said at `when`
            named = value.removeprefix("OFF").strip()
            off = FactInput(user_id, "city", named, FactType.PROFILE, valid_from=when, withdraws=True)
            mem.runtime.store.unit_of_work(lambda tx, off=off, now=now: factbase.apply(tx, [off], now))
            model.withdraw(now, named, when)
        elif value.startswith(("FIX", "REPLAN")):  # "sorry, I meant Rome, not Paris" ("going to Rome
            # instead of Berlin": a pending plan only), said now
            right, wrong = value.split()[1:]
            replans = value.startswith("REPLAN")
            fix = FactInput(user_id, "city", right, FactType.PROFILE, corrects=wrong, replans=replans)
            mem.runtime.store.unit_of_work(lambda tx, fix=fix, now=now: factbase.apply(tx, [fix], now))
            model.correct(now, right, wrong, replans=replans)
        elif value.startswith("END"):  # "I no longer live in (Paris)", said at `when`
            named = value.removeprefix("END").strip()
            end = FactInput(user_id, "city", named, FactType.PROFILE, valid_from=when, ends=True)
            mem.runtime.store.unit_of_work(lambda tx, end=end, now=now: factbase.apply(tx, [end], now))
            model.end(now, named, when)
        elif value.startswith("LATER"):  # "the move (to Rome) got pushed back", said now, to `offset` days on
            named, to = value.removeprefix("LATER").strip(), now + timedelta(days=abs(offset) + 1)
            moved = FactInput(user_id, "city", named, FactType.PROFILE, withdraws=True, put_off_to=to)
            mem.runtime.store.unit_of_work(lambda tx, moved=moved, now=now: factbase.apply(tx, [moved], now))
            model.put_off(now, named, to)
        else:
            new = FactInput(user_id, "city", value, FactType.PROFILE, valid_from=when, source=source)
            factbase.set_fact(mem.runtime, new, now=now)
            model.set(now, value, when, source.value)
        for as_of in (T0, now, *(t for t in model.times() if t <= now)):
            got = mem.facts.get(user_id, "city", as_of=as_of, known_at=now)
            seen[(as_of, now)] = got and got.id
            assert (got and (got.value, got.valid_from, got.valid_to)) == model.answer(as_of, now)

    probes = sorted({t + d for t in [T0, *model.times()] for d in (timedelta(seconds=-1), timedelta(0))})
    known_ats = sorted({o.at for o in model.ops} | {o.at - timedelta(seconds=1) for o in model.ops})
    history = mem.facts.history(user_id, "city")
    for known_at in known_ats:
        plan_starts = {f.valid_from for f in history if f.planned_at is not None}
        known = [
            i
            for f in history
            if (i := temporal.known_interval(f, known_at)) is not None and i[1] not in plan_starts
        ]
        assert not temporal.overlapping(known), known_at
        for as_of in probes:
            got = mem.facts.get(user_id, "city", as_of=as_of, known_at=known_at)
            expected = model.answer(as_of, known_at)
            assert (got and (got.value, got.valid_from, got.valid_to)) == expected, (as_of, known_at)
    for (as_of, known_at), first in seen.items():
        got = mem.facts.get(user_id, "city", as_of=as_of, known_at=known_at)
        assert (got and got.id) == first, (as_of, known_at)
    current = mem.facts.get(user_id, "city")
    assert (current and current.value) == model.current(datetime.now(UTC))
