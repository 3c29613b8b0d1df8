"""Plans put off to a new date ("the move got pushed back to June", "I'm not moving to Leeds until March"),
plans that fell through, and which plan a withdrawal names. Pure rules first, then the real server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conversation import say

from graphmem import GraphMemory
from graphmem.model import facts
from graphmem.model.fact_endings import withdrawable
from graphmem.model.fact_patterns import extract
from graphmem.model.facts import CurrentFact, FactInput
from graphmem.model.planned import moved_start
from graphmem.models import FactType, Source

SAID = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)  # a Tuesday
APRIL = datetime(2026, 4, 1, tzinfo=UTC)
JUNE = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "key", "value", "start"),
    [
        ("The move got pushed back to June.", "location", "", JUNE),
        ("Our move to Oslo has been postponed until June, ugh.", "location", "Oslo", JUNE),
        ("We've postponed the move to June.", "location", "", JUNE),  # June is the date, not the place
        ("We've postponed the move to Oslo until next month.", "location", "Oslo", APRIL),
        ("I'm not moving until June.", "location", "", JUNE),
        ("The move was moved to Friday.", "location", "", datetime(2026, 3, 13, tzinfo=UTC)),
        (
            "My start date at Spotify was pushed back to May 4.",
            "employer",
            "Spotify",
            datetime(2026, 5, 4, tzinfo=UTC),
        ),
        ("My start date has been pushed back to June.", "employer", "", JUNE),
        ("The move has been postponed.", "location", "", None),  # no date: called off
    ],
)
def test_a_plan_put_off_names_its_new_date(text: str, key: str, value: str, start: datetime | None) -> None:
    (fact,) = extract(text)
    assert (fact.key, fact.value, fact.withdraws, fact.put_off) == (key, value, True, True)
    assert fact.span is not None and moved_start(text, fact.span, SAID) == start


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm not moving to Leeds until June.", "location", "Leeds"),
        ("I'm not starting at Spotify until June.", "employer", "Spotify"),
    ],
)
def test_a_change_said_not_to_come_until_a_date_is_a_plan_from_it(text: str, key: str, value: str) -> None:
    """Named, it is a plan of that value from the date (re-dating a pending plan of it), withdrawing none."""
    (fact,) = extract(text)
    assert (fact.key, fact.value, fact.withdraws, fact.put_off, fact.planned) == (
        key,
        value,
        False,
        True,
        True,
    )
    assert fact.span is not None and moved_start(text, fact.span, SAID) == JUNE


def test_someone_elses_plan_put_off_is_keyed_under_them() -> None:
    (fact,) = extract("Emma isn't moving to Porto until June.")
    assert (fact.subject, fact.value, fact.put_off, fact.withdraws) == ("Emma", "Porto", True, False)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("The move to Oslo fell through.", "location", "Oslo"),
        ("Our move fell through because of the mortgage.", "location", ""),
        ("The job offer at Spotify was withdrawn, sadly.", "employer", "Spotify"),
        ("The job offer fell through.", "employer", ""),
        ("I'm not taking the job after all.", "employer", ""),
        ("I won't accept the position any more.", "employer", ""),
    ],
)
def test_a_plan_that_fell_through_is_called_off(text: str, key: str, value: str) -> None:
    (fact,) = extract(text)
    assert (fact.key, fact.value, fact.withdraws, fact.put_off) == (key, value, True, False)


@pytest.mark.parametrize(
    "text",
    [
        "The move got pushed back a month.",  # a shift from the old date: not read, the plan stands
        "We postponed the meeting to June.",
        "Our offer on the house fell through.",
        "The plug was pulled on the project.",
        "I'm not taking the offer, the discount is too small.",
        "My start date was a Monday.",
        "I'm not moving out until June.",
    ],
)
def test_a_sentence_that_only_looks_like_putting_a_plan_off_changes_none(text: str) -> None:
    assert [f for f in extract(text) if f.withdraws] == []


def test_instead_of_calls_off_only_a_plan_it_names() -> None:
    off, oslo = extract("I'm moving to Oslo in May instead of Manchester.")
    assert (off.withdraws, off.value, oslo.value) == (True, "Manchester", "Oslo")
    off, bath = extract("I'm moving to Bath in March instead of February.")  # a new date, not a value
    assert (off.withdraws, off.value, bath.value) == (True, "", "Bath")
    off, acme = extract("I work at Acme instead of freelancing.")
    assert (off.withdraws, off.value, acme.value) == (True, "freelancing", "Acme")
    york = CurrentFact("p", "New York", APRIL, Source.USER, 2, planned_at=SAID)
    assert not withdrawable(york, "York", SAID) and withdrawable(york, "new york", SAID)
    assert not withdrawable(replace_value(york, "Acme"), "freelancing", SAID)
    assert withdrawable(replace_value(york, "Ancoats, Manchester"), "Manchester", SAID)
    assert withdrawable(replace_value(york, "the BBC"), "BBC", SAID)


def replace_value(current: CurrentFact, value: str) -> CurrentFact:
    return CurrentFact(
        current.id, value, current.valid_from, current.source, current.version, current.planned_at
    )


def _in(value: str, valid_from: datetime, **kw: object) -> FactInput:
    return FactInput("u", "location", value, FactType.PROFILE, valid_from=valid_from, **kw)  # type: ignore[arg-type]


def test_a_plan_put_off_is_planned_again_from_its_new_date() -> None:
    later = SAID + timedelta(days=5)
    batch = [
        _in("Leeds", datetime(2026, 3, 2, tzinfo=UTC), memory_id="m-leeds"),
        _in("Manchester", APRIL, planned_at=SAID, memory_id="m-plan"),
        _in("", later, withdraws=True, put_off_to=JUNE, memory_id="m-put-off"),
    ]
    out = facts.plan(batch, {}, SAID)
    assert [(r["value"], r["valid_from"], r["planned_at"], r["status"]) for r in out.create] == [
        ("Leeds", datetime(2026, 3, 2, tzinfo=UTC), None, "superseded"),
        ("Manchester", APRIL, SAID, facts.RETRACTED),
        ("Leeds", datetime(2026, 3, 2, tzinfo=UTC), None, "superseded"),
        ("Manchester", JUNE, later, "current"),
    ]
    moved = out.create[-1]
    assert moved["memory_id"] == "m-put-off"
    assert out.create[2].get("valid_to") == JUNE  # Leeds, resumed, holds until the new date
    assert [r[0] for r in out.results] == [out.create[0]["id"], out.create[1]["id"], moved["id"]]
    assert out.audit[-2]["resolution"] == "withdraw" and out.audit[-1]["new_value"] == "Manchester"


@pytest.mark.parametrize(
    ("pending", "named", "planned"),
    [
        (None, "Leeds", None),  # nothing pending: nothing to put off ("the move to Leeds was postponed")
        (None, "", None),  # nothing pending and nothing named: nothing to plan
        ("Manchester", "Oslo", None),  # another plan pending: left as it is
        ("Manchester", "Manchester", "Manchester"),
    ],
)
def test_a_put_off_plans_only_its_own_value(pending: str | None, named: str, planned: str | None) -> None:
    state = {}
    if pending is not None:
        state[("u", None, "location")] = CurrentFact("p", pending, APRIL, Source.USER, 2, planned_at=SAID)
    later = SAID + timedelta(days=1)
    out = facts.plan([_in(named, later, withdraws=True, put_off_to=JUNE)], state, later)
    new = [r["value"] for r in out.create if r["valid_from"] == JUNE]
    assert new == ([] if planned is None else [planned])
    assert (out.close != []) == (pending is not None and planned is not None)  # a plan left stays open


def test_a_move_put_off_holds_the_old_place_until_the_new_date(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    plan = say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    put_off = say(mem, user_id, SAID + timedelta(days=5), "Ugh, the move got pushed back to June.")
    for at, value in ((APRIL + timedelta(days=2), "Leeds"), (JUNE + timedelta(days=1), "Manchester")):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == value, at
    current = mem.facts.get(user_id, "location")
    assert current is not None and (current.value, current.valid_from) == ("Manchester", JUNE)
    assert current.memory_id == put_off  # its statement is the put-off turn now
    assert [(f.value, f.status) for f in mem.facts.history(user_id, "location")][-2:] == [
        ("Leeds", "superseded"),
        ("Manchester", "current"),
    ]
    edge = mem.query(
        "MATCH (a:Memory {id: $a})-[s:SUPERSEDES]->(b:Memory {id: $b}) RETURN s.key AS key",
        {"a": put_off, "b": plan},
    )
    assert [r["key"] for r in edge] == ["location"]  # the old date's statement is outdated


def test_a_job_put_off_then_called_off_leaves_the_old_employer(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I work at Acme.")
    say(mem, user_id, SAID, "I'm starting my new job at Spotify next month!")
    say(mem, user_id, SAID + timedelta(days=3), "My start date at Spotify was pushed back to June.")
    got = mem.facts.get(user_id, "employer", as_of=JUNE + timedelta(days=1))
    assert got is not None and got.value == "Spotify"
    say(mem, user_id, SAID + timedelta(days=9), "The job offer at Spotify was withdrawn, can you believe it.")
    for at in (APRIL + timedelta(days=2), JUNE + timedelta(days=1), None):
        got = mem.facts.get(user_id, "employer", as_of=at)
        assert got is not None and got.value == "Acme", at


def test_a_pending_plan_stated_for_another_date_moves_to_it(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Bath in April.")
    say(mem, user_id, SAID + timedelta(days=2), "I'm moving to Bath in June instead of April.")
    got = mem.facts.get(user_id, "location", as_of=APRIL + timedelta(days=2))
    assert got is not None and got.value == "Leeds"
    say(mem, user_id, SAID + timedelta(days=4), "The movers are booked, so I'm moving to Bath on Friday.")
    friday = datetime(2026, 3, 20, tzinfo=UTC)
    for at, value in ((friday - timedelta(days=1), "Leeds"), (friday + timedelta(hours=1), "Bath")):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == value, at


@pytest.mark.parametrize(
    ("text", "pending", "home", "withdrawn"),
    [
        ("Update: I ended up staying in Leeds, the York flat fell through.", "York", "Leeds", True),
        ("In the end I stayed in Bath, the Bristol job didn't work out.", "Bristol", "Bath", True),
        ("We decided to stay in Paris.", "Manchester", "Leeds", False),  # a trip: Paris is not home
        ("I'm staying in Leeds this weekend.", "Manchester", "Leeds", False),  # no word says it ended so
    ],
)
def test_staying_home_calls_off_the_move_that_would_replace_it(
    text: str, pending: str, home: str, withdrawn: bool
) -> None:
    plan = CurrentFact("p", pending, APRIL, Source.USER, 2, planned_at=SAID, replaced_value=home)
    later = SAID + timedelta(days=2)
    inputs = [
        FactInput(
            "u", f.key, f.value, FactType.PROFILE, valid_from=later, withdraws=f.withdraws, stays=f.stays
        )
        for f in extract(text)
        if f.key == "location"
    ]
    out = facts.plan(inputs, {("u", None, "location"): plan}, later)
    assert ([c["id"] for c in out.close] == ["p"]) == withdrawn
