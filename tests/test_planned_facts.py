"""Plans: a fact stated before it starts ("I'm moving to Manchester next month") holds from that date, the
value it will replace stays current until then, and a statement made before the date replaces the plan.
Pure rules first, then the real server."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from conversation import say

from graphmem import GraphMemory
from graphmem.model import facts
from graphmem.model.fact_patterns import extract
from graphmem.model.facts import CurrentFact, FactInput, Resolution
from graphmem.model.planned import fact_start, happened_at
from graphmem.model.timescope import CURRENT_FACTOR
from graphmem.models import FactType, Source

SAID = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)  # a Tuesday


def _start(text: str, said: datetime = SAID) -> datetime | None:
    (fact,) = [f for f in extract(text) if f.key.endswith("location") or f.key == "employer"]
    return fact_start(text, fact.span, said)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm moving to Manchester next month.", datetime(2026, 4, 1, tzinfo=UTC)),
        ("Next week I'm moving to Oslo!", datetime(2026, 3, 16, tzinfo=UTC)),
        ("I'm relocating to Bristol in two weeks, so busy.", datetime(2026, 3, 23, tzinfo=UTC)),  # its week
        ("I'm moving to York tomorrow", datetime(2026, 3, 11, tzinfo=UTC)),
        ("I live in Leeds.", None),  # no date: from when it was said
        ("I moved to York last month.", None),  # a past date is not a plan
        ("I'm moving to York today.", None),  # today began before it was said
        ("I live in Leeds until next month.", None),  # a bound, not a start
        ("I moved to Leeds, and next week I start at the BBC.", None),  # another clause's date
    ],
)
def test_a_plan_starts_at_the_date_its_clause_names(text: str, expected: datetime | None) -> None:
    assert _start(text) == expected


def test_a_fact_without_a_place_in_the_text_is_no_plan() -> None:
    assert fact_start("I'm moving to Oslo next week", None, SAID) is None


def test_a_match_that_begins_with_a_stop_reads_its_own_clause() -> None:
    # after a LoCoMo turn: the rule's match begins at the "!" ending the sentence before, whose "in a few
    # days" is not the rule's (the turn's own "Always been interested in cultures" is no rule since round
    # 59: no imperative, tests/test_preference_objects.py)
    text = "Haven't talked in a few days, wanted to say I joined a club! Always bring snacks to the meetings."
    (rule,) = extract(text)
    assert rule.span is not None and text[rule.span[0]] == "!"
    assert fact_start(text, rule.span, SAID) is None


def _input(value: str, valid_from: datetime, planned_at: datetime | None = None, **kw: object) -> FactInput:
    return FactInput(
        "u", "location", value, FactType.PROFILE, valid_from=valid_from, planned_at=planned_at, **kw
    )  # type: ignore[arg-type]


LEEDS = CurrentFact("leeds", "Leeds", datetime(2026, 1, 1, tzinfo=UTC), Source.USER, 1)
APRIL = datetime(2026, 4, 1, tzinfo=UTC)


def test_a_plan_supersedes_from_its_start_and_an_earlier_statement_replaces_it() -> None:
    moving, settled = (
        _input("Manchester", APRIL, SAID),
        _input("Ancoats, Manchester", SAID + timedelta(days=5)),
    )
    out = facts.plan([moving, settled], {moving.identity: LEEDS}, SAID + timedelta(days=6))
    plan_id, settled_id = (r["id"] for r in out.create)
    assert [r["planned_at"] for r in out.create] == [SAID, None]
    assert [res for _, res in out.results] == [Resolution.SUPERSEDE, Resolution.SUPERSEDE]
    # the plan ends Leeds at its start; written closed as never valid (its valid_to its own start)
    assert out.close == [{"id": "leeds", "valid_to": APRIL, "status": "superseded"}]
    (plan_row,) = [r for r in out.create if r["id"] == plan_id]
    assert (plan_row["status"], plan_row["valid_to"]) == ("superseded", APRIL)
    # both statements the new value replaces are outdated from its start
    assert {(o["old"], o["at"]) for o in out.outdated if o["new"] == settled_id} == {
        (plan_id, SAID + timedelta(days=5)),
        ("leeds", SAID + timedelta(days=5)),
    }


def test_the_planned_value_stated_early_replaces_the_plan_too() -> None:
    plan = CurrentFact("plan", "Manchester", APRIL, Source.USER, 2, planned_at=SAID, replaced="leeds")
    early = _input("Manchester", SAID + timedelta(days=3))
    out = facts.plan([early], {early.identity: plan}, SAID + timedelta(days=3))
    assert out.results[0][1] is Resolution.SUPERSEDE  # not merged: it holds from day 3, not from April
    assert out.close == [{"id": "plan", "valid_to": APRIL, "status": "superseded"}]


def test_only_a_statement_made_after_the_plan_and_trusted_as_much_replaces_it() -> None:
    plan = CurrentFact("plan", "Manchester", APRIL, Source.USER, 2, planned_at=SAID, replaced="leeds")
    before = _input("Leeds", SAID - timedelta(days=1))  # said before the plan was made: kept aside
    agent = _input("Liverpool", SAID + timedelta(days=1), source=Source.AGENT)
    after = _input("Liverpool", APRIL + timedelta(days=9))  # after the plan started: an ordinary change
    for new, expected in ((before, Resolution.KEEP_BOTH), (agent, Resolution.KEEP_BOTH)):
        assert facts.plan([new], {new.identity: plan}, SAID).results[0][1] is expected
    out = facts.plan([after], {after.identity: plan}, APRIL + timedelta(days=9))
    assert out.close == [{"id": "plan", "valid_to": APRIL + timedelta(days=9), "status": "superseded"}]


def test_a_set_fact_starting_later_is_planned_when_it_is_set() -> None:
    out = facts.plan([_input("Oslo", APRIL)], {}, SAID)
    assert out.create[0]["planned_at"] == SAID
    assert facts.plan([_input("Oslo", SAID)], {}, SAID).create[0]["planned_at"] is None


# --- the real server ---------------------------------------------------------------------------------


def test_a_move_planned_for_next_year_leaves_the_current_place_current(
    mem: GraphMemory, user_id: str
) -> None:
    now = datetime.now(UTC)
    say(mem, user_id, now - timedelta(days=30), "I live in Leeds, near the university.")
    planning = say(mem, user_id, now - timedelta(minutes=5), "I'm moving to Manchester next year.")
    jan = datetime(now.year + 1, 1, 1, tzinfo=UTC)
    current = mem.facts.get(user_id, "location")
    assert current is not None and current.value == "Leeds" and current.valid_to == jan
    assert [f.value for f in mem.facts.list(user_id)] == ["Leeds"]
    later = mem.facts.get(user_id, "location", as_of=jan + timedelta(days=1))
    assert (
        later is not None and later.value == "Manchester" and later.planned_at == now - timedelta(minutes=5)
    )
    ctx = mem.context("Where do I live?", user_id=user_id, reinforce=False)
    assert [i.text for i in ctx.items if i.kind == "fact"] == [
        f"location: Leeds (from {jan.date()}: Manchester)"
    ]
    # the statement of the current place is not outdated yet: it is the current answer (timescope.backs)
    hits = mem.recall("Where do I live?", user_id=user_id, k=2, reinforce=False)
    leeds = next(h for h in hits if "Leeds" in h.memory.content and h.memory.id != planning)
    assert leeds.explanation.components.get("currency") == CURRENT_FACTOR


def test_a_plan_replaced_before_it_starts_keeps_what_was_known_then(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    time.sleep(0.02)
    checkpoint = datetime.now(UTC)
    time.sleep(0.02)
    settled = say(mem, user_id, SAID + timedelta(days=5), "I've settled in Salford, Manchester.")
    as_known_then = mem.facts.get(user_id, "location", as_of=APRIL + timedelta(days=2), known_at=checkpoint)
    assert as_known_then is not None and as_known_then.value == "Manchester"  # the plan, as it stood
    assert (
        mem.facts.get(user_id, "location", as_of=SAID + timedelta(days=6), known_at=checkpoint).value
        == "Leeds"
    )  # type: ignore[union-attr]
    for at in (SAID + timedelta(days=6), APRIL + timedelta(days=2)):
        assert mem.facts.get(user_id, "location", as_of=at).value == "Salford, Manchester"  # type: ignore[union-attr]
    assert mem.facts.get(user_id, "location").value == "Salford, Manchester"  # type: ignore[union-attr]
    hits = mem.recall("Where do I live now?", user_id=user_id, k=3, reinforce=False)
    assert hits[0].memory.id == settled, [h.memory.content for h in hits]


def test_a_snapshot_shows_one_version_of_a_key_where_a_settled_plan_overlaps(
    mem: GraphMemory, user_id: str
) -> None:
    # Leeds keeps its recorded end (the plan's start) and Salford holds from before it: both are valid on
    # 16 March as recorded; the snapshot and the diff read the key's version as facts.get does
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    say(mem, user_id, SAID + timedelta(days=5), "I've settled in Salford, Manchester.")
    at = SAID + timedelta(days=6)
    snap = mem.temporal.snapshot(user_id, as_of=at)
    facts_then = [n.properties["value"] for n in snap.nodes if n.label == "Fact"]
    assert facts_then == ["Salford, Manchester"]
    change = mem.temporal.diff(user_id, datetime(2026, 3, 5, tzinfo=UTC), at).changed_facts
    assert [(c.key, c.before, c.after) for c in change] == [("location", "Leeds", "Salford, Manchester")]


def test_restating_the_value_a_plan_will_replace_leaves_the_plan(mem: GraphMemory, user_id: str) -> None:
    # still in Leeds a few days after planning the move: a statement of the value that holds until the plan's
    # date, not a value replacing the plan (which would have kept Leeds current after 1 April)
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    say(mem, user_id, SAID + timedelta(days=2), "I live in Leeds, so the commute is long.")
    for at, value in ((SAID + timedelta(days=3), "Leeds"), (APRIL + timedelta(days=2), "Manchester")):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == value, at
    assert [(f.value, f.status) for f in mem.facts.history(user_id, "location")] == [
        ("Leeds", "superseded"),
        ("Manchester", "current"),
    ]
    restated = mem.facts.set(user_id, "location", "leeds", valid_from=SAID + timedelta(days=4))
    assert (restated.value, restated.valid_to) == ("Leeds", APRIL)  # the version that holds until the plan


def test_withdrawing_a_plan_resumes_the_value_it_would_have_ended(mem: GraphMemory, user_id: str) -> None:
    now = datetime.now(UTC)
    mem.facts.set(user_id, "location", "Leeds", valid_from=now - timedelta(days=90))
    mem.facts.set(user_id, "location", "Berlin", valid_from=now + timedelta(days=30))  # a plan made now
    withdrawn = mem.facts.retract(user_id, "location")  # the move is off
    assert (withdrawn.value, withdrawn.status) == ("Berlin", "retracted")
    for at in (now, now + timedelta(days=60)):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == "Leeds", at
    history = [(f.value, f.status) for f in mem.facts.history(user_id, "location")]
    assert history == [("Leeds", "superseded"), ("Berlin", "retracted"), ("Leeds", "current")]
    mem.facts.retract(user_id, "location")  # a value that is not a plan is withdrawn as before
    assert mem.facts.get(user_id, "location", as_of=now + timedelta(days=60)) is None


def test_a_value_stated_after_a_withdrawn_plan_and_before_its_date_is_current(
    mem: GraphMemory, user_id: str
) -> None:
    # the resumed value starts at the withdrawn plan's date: a plan made at the retraction, not an older
    # value that a statement starting before it would contradict (kept aside, the statement lost)
    now = datetime.now(UTC)
    mem.facts.set(user_id, "location", "Leeds", valid_from=now - timedelta(days=90))
    mem.facts.set(user_id, "location", "Berlin", valid_from=now + timedelta(days=30))
    mem.facts.retract(user_id, "location")  # the move is off: Leeds goes on from the plan's date
    paris = mem.facts.set(user_id, "location", "Paris")  # then a move elsewhere, before that date
    assert paris.status == "current"
    for at in (None, now + timedelta(days=1), now + timedelta(days=60)):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == "Paris", at
    before = mem.facts.get(user_id, "location", as_of=now - timedelta(days=1))
    assert before is not None and before.value == "Leeds"
    assert [f.value for f in mem.facts.list(user_id)] == ["Paris"]


def test_a_withdrawn_plan_without_a_predecessor_holds_back_no_later_value(
    mem: GraphMemory, user_id: str
) -> None:
    # the withdrawn plan held nowhere: its start is no end of a valid interval that a value stated now
    # would contradict
    now = datetime.now(UTC)
    mem.facts.set(
        user_id, "location", "Berlin", valid_from=now + timedelta(days=30)
    )  # a plan, nothing before
    mem.facts.retract(user_id, "location")  # the move is off
    paris = mem.facts.set(user_id, "location", "Paris")
    assert paris.status == "current"
    got = mem.facts.get(user_id, "location")
    assert got is not None and got.value == "Paris"


def test_a_value_replacing_a_plan_may_not_start_inside_an_ended_interval(
    mem: GraphMemory, user_id: str
) -> None:
    # a plan made over a key with no current value but an interval ending ahead (Rome, recorded as held until
    # +6 days): a value starting inside that interval is kept aside, with the plan as without it, so valid
    # intervals overlap only where a plan's predecessor keeps its end (the property tests found it)
    now = datetime.now(UTC)
    mem.facts.set(user_id, "location", "Rome", valid_from=now - timedelta(days=10))
    mem.facts.retract(user_id, "location", valid_to=now + timedelta(days=6))
    mem.facts.set(user_id, "location", "Paris", valid_from=now + timedelta(days=9))  # a plan
    assert mem.facts.set(user_id, "location", "Berlin").status == "conflicted"
    for at, value in ((now + timedelta(days=1), "Rome"), (now + timedelta(days=10), "Paris")):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == value, at


def test_a_withdrawn_plan_leaves_the_context_its_value_alone(mem: GraphMemory, user_id: str) -> None:
    # the value a withdrawn plan resumes from its date is recorded ahead too, but it changes nothing to name
    now = datetime.now(UTC)
    mem.facts.set(user_id, "location", "Leeds", valid_from=now - timedelta(days=90))
    mem.facts.set(user_id, "location", "Berlin", valid_from=now + timedelta(days=30))
    mem.facts.retract(user_id, "location")
    ctx = mem.context("Where do I live?", user_id=user_id, reinforce=False)
    assert [i.text for i in ctx.items if i.kind == "fact"] == ["location: Leeds"]


def test_only_a_withdrawn_plan_resumes_a_value() -> None:
    plan = {"id": "p", "version": 2, "valid_from": APRIL, "planned_at": SAID}
    leeds = {"id": "l", "user_id": "u", "key": "location", "value": "Leeds", "source": "user", "version": 1}
    resumed = facts.plan_retraction(plan, valid_to=None, resumed=leeds).create
    assert resumed is not None and (resumed["value"], resumed["valid_from"], resumed["status"]) == (
        "Leeds",
        APRIL,
        "current",
    )
    assert facts.plan_retraction({**plan, "planned_at": None}, valid_to=None, resumed=leeds).create is None
    ended = facts.plan_retraction(plan, valid_to=APRIL + timedelta(days=3), resumed=leeds).create
    assert ended is not None and ended["status"] == facts.ENDED  # "it held until then": nothing resumes


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'll be moving to Oslo next month.", "location", "Oslo"),
        ("I'm going to start my new job at Spotify on Monday.", "employer", "Spotify"),
        ("I start work at the BBC next week", "employer", "BBC"),
        ("I will start working for Google in two weeks", "employer", "Google"),
    ],
)
def test_a_change_stated_in_the_future_tense_is_a_plan(text: str, key: str, value: str) -> None:
    (fact,) = extract(text)
    assert (fact.key, fact.value, fact.planned) == (key, value, True)
    assert fact_start(text, fact.span, SAID) is not None


def test_a_weekday_in_a_job_started_ahead_is_the_coming_one(mem: GraphMemory, user_id: str) -> None:
    # "I'm starting ... on Monday" has no future word ("will", "next"), but its rule is one of the future
    # tense: said on a Tuesday, Monday is the coming one (a bare weekday otherwise reads backwards)
    say(mem, user_id, SAID, "I'm starting my new job at Spotify on Monday.")
    assert [(f.value, f.valid_from) for f in mem.facts.history(user_id, "employer")] == [
        ("Spotify", datetime(2026, 3, 16, tzinfo=UTC))
    ]


@pytest.mark.parametrize(
    "text",
    ["I'm starting to learn guitar next month", "I'm joining a gym next month", "I'll start at 9 tomorrow"],
)
def test_future_tense_without_a_job_or_a_move_is_no_fact(text: str) -> None:
    assert extract(text) == []


def test_a_future_change_without_a_date_is_no_fact_yet(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, SAID, "I live in Leeds but I'll move to York one day.")
    say(mem, user_id, SAID + timedelta(days=1), "I live in Leeds, and I'll be moving to Bristol next month.")
    assert [(f.value, f.valid_from) for f in mem.facts.history(user_id, "location")] == [
        ("Leeds", SAID),
        ("Bristol", APRIL),
    ]
    assert mem.facts.get(user_id, "location", as_of=SAID + timedelta(days=2)).value == "Leeds"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I moved to London ten years ago.", datetime(2016, 1, 1, tzinfo=UTC)),
        ("In 2019 I moved to Leeds.", datetime(2019, 1, 1, tzinfo=UTC)),
        ("I moved to Paris in 2015 and then to Berlin in 2019.", datetime(2019, 1, 1, tzinfo=UTC)),
        ("I started a new job at Spotify in January.", datetime(2026, 1, 1, tzinfo=UTC)),
        # news, not history: it holds from when it was told
        ("I moved to Leeds last week.", None),
        ("I moved to York yesterday!", None),
        # another clause's date, another phrase's, a bound
        ("I moved to the UK in 2019 and now live in Leeds.", None),
        ("I live in Leeds, I moved here in 2019.", None),
        ("I moved to Leeds.", None),
    ],
)
def test_a_change_told_with_a_past_date_happened_then(text: str, expected: datetime | None) -> None:
    (fact,) = [f for f in extract(text) if f.key in ("location", "employer")]
    assert fact.span is not None
    assert happened_at(text, fact.span, SAID) == expected
