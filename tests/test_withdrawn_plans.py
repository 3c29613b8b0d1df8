"""Plans called off, and plans stated in the progressive: "I'm not moving to Manchester after all" withdraws
the pending move (the value it would have replaced goes on, its statement current again), and "I'm moving to
York in March" is a plan for March. Pure rules first, then the real server."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from conversation import say

from graphmem import GraphMemory
from graphmem.model import facts
from graphmem.model.fact_patterns import extract
from graphmem.model.facts import CurrentFact, FactInput
from graphmem.model.timescope import CURRENT_FACTOR, STALE_FACTOR, TimeScope, is_outdated
from graphmem.models import FactType, Source

SAID = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)  # a Tuesday
APRIL = datetime(2026, 4, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm not moving to Manchester after all.", "location", "Manchester"),
        ("I won't be moving to Oslo, the job fell through.", "location", "Oslo"),
        ("I've decided not to move.", "location", ""),
        ("The move to Oslo is off!", "location", "Oslo"),
        ("Bad news: the move is off.", "location", ""),
        ("We talked it over and I've called off the move.", "location", ""),
        ("I turned down the job at Spotify.", "employer", "Spotify"),
        ("I'm not starting at Spotify after all.", "employer", "Spotify"),
        ("I'm not taking the job at the BBC", "employer", "BBC"),
    ],
)
def test_a_plan_called_off_is_extracted_as_a_withdrawal(text: str, key: str, value: str) -> None:
    (fact,) = [f for f in extract(text) if f.key == key]  # "the job fell through" calls off a job too
    assert (fact.key, fact.value, fact.withdraws, fact.ends) == (key, value, True, False)


@pytest.mark.parametrize(
    ("text", "who", "value", "planned", "withdraws"),
    [
        ("Emma will be moving to Porto next month.", "Emma", "Porto", True, False),
        ("Emma isn't moving to Porto after all.", "Emma", "Porto", False, True),
        ("My brother has decided not to move.", "brother", "", False, True),
        ("She isn't moving after all.", None, None, None, None),  # whose plan: not known without coreference
    ],
)
def test_someone_elses_plan_and_its_calling_off_are_keyed_under_them(
    text: str, who: str | None, value: str | None, planned: bool | None, withdraws: bool | None
) -> None:
    found = [(f.subject, f.value, f.planned, f.withdraws) for f in extract(text)]
    assert found == ([] if who is None else [(who, value, planned, withdraws)])


@pytest.mark.parametrize(
    ("text", "ahead"),
    [
        ("I'm moving to York in March.", True),
        ("My sister Emma is moving to Porto in May", True),
        ("I'm relocating to Bristol on Friday", True),
        ("I moved to York in March.", False),
        ("I live in York.", False),
    ],
)
def test_a_move_in_the_progressive_reads_its_bare_dates_ahead(text: str, ahead: bool) -> None:
    (fact,) = [
        f for f in extract(text) if not f.key.startswith("person:")
    ]  # "My sister Emma": a relation too
    assert (fact.withdraws, fact.ahead) == (False, ahead)


def _in(value: str, valid_from: datetime, **kw: object) -> FactInput:
    return FactInput("u", "location", value, FactType.PROFILE, valid_from=valid_from, **kw)  # type: ignore[arg-type]


def _batch() -> list[FactInput]:
    return [
        _in("Leeds", datetime(2026, 3, 2, tzinfo=UTC), memory_id="m-leeds"),
        _in("Manchester", APRIL, planned_at=SAID, memory_id="m-plan"),
    ]


def test_calling_off_a_plan_resumes_the_value_it_would_have_replaced() -> None:
    off = SAID + timedelta(days=5)
    out = facts.plan([*_batch(), _in("Manchester", off, withdraws=True, memory_id="m-off")], {}, SAID)
    leeds, plan, resumed = out.create
    assert (plan["value"], plan["status"], plan["valid_to"], plan["expire"]) == (
        "Manchester",
        facts.RETRACTED,
        None,
        True,
    )  # recorded and withdrawn in one batch: valid nowhere as recorded now
    assert (resumed["value"], resumed["valid_from"], resumed["planned_at"], resumed["memory_id"]) == (
        "Leeds",
        datetime(2026, 3, 2, tzinfo=UTC),
        None,
        "m-leeds",
    )  # Leeds goes on as one value from its own start (recorded later, it holds where the two overlap)
    assert {"src": resumed["id"], "dst": plan["id"], "valid_from": APRIL} in out.supersedes
    # the mark the plan put on Leeds's statement in this batch is not written at all (the reinstatement,
    # written first, ends a stored one: here none)
    assert leeds["id"] not in {o["old"] for o in out.outdated}
    assert out.reinstated == [{"fact": leeds["id"], "key": "location"}]
    assert {"old": plan["id"], "new": None, "key": "location", "at": off, "memory": "m-off"} in out.outdated
    assert out.audit[-1]["resolution"] == "withdraw"


def test_a_stored_plan_called_off_reinstates_the_statement_it_outdated() -> None:
    leeds = {"user_id": "u", "agent_id": None, "key": "location", "value": "Leeds", "fact_type": "profile",
             "source": "user", "confidence": 1.0, "memory_id": "m-leeds"}  # fmt: skip
    plan = CurrentFact(
        "plan", "Manchester", APRIL, Source.USER, 2, planned_at=SAID, replaced="v1", resumes=leeds
    )
    off = SAID + timedelta(days=5)
    out = facts.plan([_in("", off, withdraws=True)], {("u", None, "location"): plan}, off)
    assert out.reinstated == [{"fact": "v1", "key": "location"}]
    (resumed,) = out.create
    assert (resumed["value"], resumed["memory_id"], resumed["version"]) == ("Leeds", "m-leeds", 3)


def test_a_new_plan_stated_instead_replaces_the_pending_one() -> None:
    (off, oslo) = extract("Change of plans: I'm moving to Oslo in May instead.")
    assert (off.withdraws, off.value, oslo.value, oslo.ahead) == (True, "", "Oslo", True)
    may, said = datetime(2026, 5, 1, tzinfo=UTC), SAID + timedelta(days=5)
    batch = [*_batch(), _in("", said, withdraws=True), _in("Oslo", may, planned_at=said)]
    out = facts.plan(batch, {}, said)
    held = [(r["value"], r["valid_from"], r.get("valid_to"), r["status"]) for r in out.create]
    assert held == [
        ("Leeds", datetime(2026, 3, 2, tzinfo=UTC), APRIL, "superseded"),
        ("Manchester", APRIL, None, facts.RETRACTED),  # valid nowhere
        ("Leeds", datetime(2026, 3, 2, tzinfo=UTC), may, "superseded"),  # the value that goes on, to May
        ("Oslo", may, None, "current"),
    ]


@pytest.mark.parametrize(
    ("value", "when"),
    [
        ("Oslo", SAID + timedelta(days=5)),  # names another plan
        ("", SAID - timedelta(days=1)),  # said before the plan was made
    ],
)
def test_only_a_pending_plan_it_names_is_withdrawn(value: str, when: datetime) -> None:
    batch = [*_batch(), _in(value, when, withdraws=True)]
    out = facts.plan(batch, {}, SAID + timedelta(days=30))
    assert [r["status"] for r in out.create] == ["superseded", "current"]
    assert out.audit[-1]["resolution"] == "withdraw_ignored" and not out.reinstated


def test_a_plan_whose_date_has_passed_is_called_off_too() -> None:
    # "next month" said on 30 November reads as 1 December; "the move is off" on 4 December means it never
    # happened
    off = APRIL + timedelta(days=3)
    out = facts.plan([*_batch(), _in("", off, withdraws=True)], {}, off)
    leeds, plan, resumed = out.create
    assert (plan["status"], resumed["value"], resumed["valid_from"], resumed["planned_at"]) == (
        facts.RETRACTED,
        "Leeds",
        leeds["valid_from"],
        None,
    )


def test_a_withdrawal_names_a_plan_by_part_of_its_value() -> None:
    batch = [_in("Ancoats, Manchester", APRIL, planned_at=SAID)]
    out = facts.plan([*batch, _in("Manchester", SAID + timedelta(days=1), withdraws=True)], {}, SAID)
    assert out.create[0]["status"] == facts.RETRACTED


def test_a_reinstated_statement_was_outdated_only_while_the_mark_held() -> None:
    marked, withdrawn = SAID, SAID + timedelta(days=5)
    memory = {"outdated_from": APRIL, "outdated_at": marked, "reinstated_at": withdrawn}
    may = APRIL + timedelta(days=30)
    assert is_outdated(memory, TimeScope(as_of=may, known_at=withdrawn - timedelta(days=1)), may)
    assert not is_outdated(memory, TimeScope(as_of=may), may)
    assert is_outdated({**memory, "reinstated_at": None}, TimeScope(as_of=may), may)


def _currency(mem: GraphMemory, user_id: str, **times: datetime) -> dict[str, float]:
    hits = mem.recall("Where do I live?", user_id=user_id, k=5, reinforce=False, **times)  # type: ignore[arg-type]
    return {h.memory.id: h.explanation.components.get("currency", 1.0) for h in hits}


def test_a_move_called_off_leaves_the_old_place_current(mem: GraphMemory, user_id: str) -> None:
    leeds = say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    plan = say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    time.sleep(0.02)
    checkpoint = datetime.now(UTC)
    time.sleep(0.02)
    off = say(mem, user_id, SAID + timedelta(days=5), "I'm not moving to Manchester after all, sadly.")
    for at in (SAID + timedelta(days=6), APRIL + timedelta(days=2), None):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == "Leeds", at
    then = mem.facts.get(user_id, "location", as_of=APRIL + timedelta(days=2), known_at=checkpoint)
    assert then is not None and then.value == "Manchester"  # the plan, as it was known before it was off
    assert [(f.value, f.status) for f in mem.facts.history(user_id, "location")] == [
        ("Leeds", "superseded"),
        ("Manchester", "retracted"),
        ("Leeds", "current"),
    ]
    # the current value reads as one that never stopped: from its own start, with no end
    current = mem.facts.get(user_id, "location")
    assert current is not None and (current.value, current.status, current.valid_from, current.valid_to) == (
        "Leeds",
        "current",
        datetime(2026, 3, 2, 9, tzinfo=UTC),
        None,
    )
    change = mem.temporal.diff(user_id, SAID + timedelta(days=6), APRIL + timedelta(days=2)).changed_facts
    assert change == []  # nothing changes at the withdrawn plan's date
    now = _currency(mem, user_id)
    assert (
        now[leeds] == CURRENT_FACTOR and now[plan] == STALE_FACTOR
    )  # Leeds is current again; the plan is not
    assert _currency(mem, user_id, known_at=checkpoint)[leeds] == STALE_FACTOR  # as the engine knew then
    edge = mem.query(
        "MATCH (a:Memory {id: $a})-[s:SUPERSEDES]->(b:Memory {id: $b}) RETURN s.key AS key",
        {"a": off, "b": plan},
    )
    assert [r["key"] for r in edge] == ["location"]
    ctx = mem.context("Where do I live?", user_id=user_id, reinforce=False)
    assert [i.text for i in ctx.items if i.kind == "fact"] == ["location: Leeds"]


def test_a_retracted_plan_marks_the_statements_as_a_called_off_one(mem: GraphMemory, user_id: str) -> None:
    leeds = say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    plan = say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    mem.facts.retract(user_id, "location")  # the plan: the current version as recorded
    currency = _currency(mem, user_id)
    assert currency[leeds] == CURRENT_FACTOR and currency[plan] == STALE_FACTOR


def test_calling_off_without_a_pending_plan_changes_nothing(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm not moving to Manchester, I love it here.")
    assert [(f.value, f.status) for f in mem.facts.history(user_id, "location")] == [("Leeds", "current")]


def test_a_bare_month_in_a_move_stated_in_the_progressive_is_the_coming_one(
    mem: GraphMemory, user_id: str
) -> None:
    said = datetime(2026, 1, 10, 12, tzinfo=UTC)
    say(mem, user_id, said, "I'm moving to York in March.")
    (york,) = mem.facts.history(user_id, "location")
    assert (york.value, york.valid_from, york.planned_at) == ("York", datetime(2026, 3, 1, tzinfo=UTC), said)


def test_consolidation_leaves_the_statement_a_pending_plan_will_replace(
    dyn: GraphMemory, user_id: str
) -> None:
    now = datetime.now(UTC)
    leeds = say(dyn, user_id, now - timedelta(days=30), "I live in Leeds, near the university.")
    say(dyn, user_id, now - timedelta(minutes=5), "I'm moving to Manchester next year.")
    assert dyn.jobs.run("consolidate", user_id=user_id).status == "success"
    assert dyn.memories.get(leeds, user_id=user_id).status == "active"  # type: ignore[union-attr]


def test_a_statement_reinstated_and_then_replaced_is_outdated_from_the_new_change(
    mem: GraphMemory, user_id: str
) -> None:
    leeds = say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    say(mem, user_id, SAID + timedelta(days=5), "The move is off.")
    moved = SAID + timedelta(days=60)
    say(mem, user_id, moved, "I moved to Bristol.")
    (row,) = mem.query(
        "MATCH (m:Memory {id: $id}) RETURN m.outdated_from AS since, m.reinstated_at AS back", {"id": leeds}
    )
    assert (row["since"], row["back"]) == (moved, None)  # a new mark, not the withdrawn plan's date
    assert _currency(mem, user_id)[leeds] == STALE_FACTOR


def test_a_move_elsewhere_instead_replaces_the_plan_from_its_own_date(mem: GraphMemory, user_id: str) -> None:
    leeds = say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    say(mem, user_id, SAID + timedelta(days=5), "Change of plans: I'm moving to Oslo in May instead.")
    may = datetime(2026, 5, 1, tzinfo=UTC)
    for at, value in ((APRIL + timedelta(days=14), "Leeds"), (may + timedelta(days=1), "Oslo")):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == value, at
    (row,) = mem.query("MATCH (m:Memory {id: $id}) RETURN m.outdated_from AS since", {"id": leeds})
    assert row["since"] == may  # Leeds's statement holds until the move that happens


def test_someone_elses_move_called_off_leaves_their_place(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "My sister Emma lives in Lisbon.")
    say(mem, user_id, SAID, "Emma will be moving to Porto next month.")
    before = mem.facts.get(user_id, "Emma/location", as_of=APRIL + timedelta(days=2))
    assert before is not None and before.value == "Porto"
    say(mem, user_id, SAID + timedelta(days=3), "Emma isn't moving to Porto after all.")
    for at in (None, APRIL + timedelta(days=2)):
        got = mem.facts.get(user_id, "Emma/location", as_of=at)
        assert got is not None and got.value == "Lisbon", at


TURN = "I'm moving to Oslo next month. Actually no, I'm not moving to Oslo after all."


def test_a_plan_called_off_later_in_the_turn_comes_after_it() -> None:
    # facts apply in the order said; a withdrawal before the value stated "instead"
    assert [(f.value, f.withdraws) for f in extract(TURN)] == [("Oslo", False), ("Oslo", True)]
    (off, oslo) = extract("Change of plans: I'm moving to Oslo in May instead.")
    assert (off.withdraws, oslo.withdraws) == (True, False)


def test_a_plan_stated_and_called_off_in_one_turn_leaves_the_old_place(
    mem: GraphMemory, user_id: str
) -> None:
    say(mem, user_id, SAID - timedelta(days=8), "I live in Leeds.")
    say(mem, user_id, SAID, TURN)
    got = mem.facts.get(user_id, "location", as_of=datetime(2026, 4, 5, tzinfo=UTC))
    assert got is not None and got.value == "Leeds"


def test_a_called_off_plan_conflicts_with_nothing_after_its_date(dyn: GraphMemory, user_id: str) -> None:
    # the plan never superseded the statement of the value that goes on: consolidation (after the plan's
    # date) records no conflict between the two statements, nor outdates the old one
    say(dyn, user_id, SAID - timedelta(days=8), "I live in Leeds, near the university.")
    say(dyn, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    say(dyn, user_id, SAID + timedelta(days=5), "I'm not moving to Manchester after all, sadly.")
    assert dyn.jobs.run("consolidate", user_id=user_id).status == "success"
    rows = dyn.query(
        "MATCH (a:Memory)-[c:CONFLICTS_WITH]-(b:Memory) WHERE a.user_id = $u RETURN count(c) AS n",
        {"u": user_id},
    )
    assert rows == [{"n": 0}]
