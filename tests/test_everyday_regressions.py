"""Everyday sentences the round-40 rules read wrongly: a past date beside a future word read as next year's,
a plan put off "to the 20th" or "before June" called off, "after all" read as a time to come, a statement
followed by a question to the listener dropped, "I'm working for two hours" read as an employer, the first
of two put-offs in a turn kept, and "instead of going to X" naming no plan. Pure rules, then the real
server."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import UTC, datetime, timedelta

import pytest
from conversation import say

from graphmem import GraphMemory
from graphmem.model import fact_changes, fact_patterns, facts
from graphmem.model.dates import resolve_dates
from graphmem.model.fact_patterns import extract
from graphmem.model.facts import CurrentFact, FactInput
from graphmem.model.planned import fact_start, later_unnamed, moved_start
from graphmem.models import FactType, Source

SAID = datetime(2026, 3, 10, 15, 30, tzinfo=UTC)  # a Tuesday
APRIL = datetime(2026, 4, 1, tzinfo=UTC)
JUNE = datetime(2026, 6, 1, tzinfo=UTC)


def test_a_past_day_beside_a_future_word_stays_in_its_year() -> None:
    (birthday, _) = resolve_dates("My birthday was on January 15th and I'm planning a trip next month.", SAID)
    assert birthday.start == datetime(2026, 1, 15, tzinfo=UTC)  # not 15 January 2027
    for text in (
        "I moved to Leeds on March 3rd, hopefully I'll settle in soon.",
        "I moved to Leeds on the 3rd, I'll unpack soon.",
    ):
        (fact,) = extract(text)
        assert fact_start(text, fact.span, SAID, future=fact.planned, ahead=fact.ahead) is None, text


def test_a_move_said_with_a_past_date_and_a_future_word_holds_now(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 2, 1, 9, tzinfo=UTC), "I live in York.")
    say(mem, user_id, SAID, "I moved to Leeds on March 3rd, hopefully I'll settle in soon.")
    got = mem.facts.get(user_id, "location", as_of=SAID + timedelta(days=1))
    assert got is not None and got.value == "Leeds"  # was a plan for 3 March 2027: York stayed


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("The move got pushed back to the 20th.", datetime(2026, 3, 20, tzinfo=UTC)),
        ("I'm not moving to Leeds until the 20th.", datetime(2026, 3, 20, tzinfo=UTC)),
        ("I'm not moving to Leeds before June.", JUNE),
    ],
)
def test_a_plan_put_off_to_the_nth_or_before_a_date_is_dated(text: str, start: datetime) -> None:
    (fact,) = extract(text)
    assert fact.put_off and fact.span is not None
    assert moved_start(text, fact.span, SAID) == start  # was None: the plan called off


def test_a_move_put_off_to_the_20th_still_happens(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    say(mem, user_id, datetime(2026, 3, 25, 9, tzinfo=UTC), "Ugh, the move got pushed back to the 20th.")
    for at, value in ((APRIL + timedelta(days=9), "Leeds"), (APRIL + timedelta(days=20), "Manchester")):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == value, at


def test_moving_after_all_is_no_time_to_come() -> None:
    text = "Actually, I'm moving to Leeds after all!"
    (fact,) = extract(text)
    assert fact.span is not None and not later_unnamed(text, fact.span)


def test_a_move_back_on_after_all_holds(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in York.")
    say(mem, user_id, SAID, "I'm not moving to Leeds, I love it here.")
    say(mem, user_id, SAID + timedelta(days=3), "Actually, I'm moving to Leeds after all!")
    got = mem.facts.get(user_id, "location")
    assert got is not None and got.value == "Leeds"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I live in Leeds and you?", [("location", "Leeds")]),
        ("I work at Acme and what do you do?", [("employer", "Acme")]),
        ("Should I move to Berlin and start over?", []),  # the sentence asks before the statement
    ],
)
def test_a_question_to_the_listener_after_a_statement_leaves_it_stated(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert [(f.key, f.value) for f in extract(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm working for two hours today.", []),
        ("I'm working for a few days in Paris.", []),
        ("I'm working at full capacity.", []),
        ("I'm working for the first time in months.", []),
        ("I'm working at Google.", [("employer", "Google", False)]),
        (
            "I left Leeds to join my partner in York.",
            [("employer", "Leeds to join my partner in York", True)],
        ),
        ("I left Acme last week to join Spotify.", [("employer", "Spotify", False)]),
        ("I retired my old laptop.", []),
        ("I've retired.", [("employer", "", True)]),
    ],
)
def test_work_words_that_name_no_employer(text: str, expected: list[tuple[str, str, bool]]) -> None:
    assert [(f.key, f.value, f.ends) for f in extract(text)] == expected


def test_the_last_put_off_said_in_a_turn_stands() -> None:
    text = "The move got pushed back to June. Actually no, I'm not moving until July."
    (fact,) = extract(text)
    assert fact.put_off and fact.span is not None
    assert moved_start(text, fact.span, SAID) == datetime(2026, 7, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("I'm moving to Bristol next month instead of going to Manchester.", "Manchester"),
        ("I'm starting my new job at Google next week instead of joining Spotify.", "Spotify"),
    ],
)
def test_instead_of_doing_names_the_plan(text: str, named: str) -> None:
    off = [f for f in extract(text) if f.withdraws]
    assert [f.value for f in off] == [named]


def test_a_plan_replaced_instead_of_going_there_never_holds(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester next month, can't wait.")
    say(
        mem, user_id, SAID + timedelta(days=2), "I'm moving to Bristol in May instead of going to Manchester."
    )
    for at, value in ((APRIL + timedelta(days=9), "Leeds"), (datetime(2026, 5, 2, tzinfo=UTC), "Bristol")):
        got = mem.facts.get(user_id, "location", as_of=at)
        assert got is not None and got.value == value, at


def test_a_team_moving_to_a_tool_is_no_move_of_home() -> None:
    assert [f.value for f in extract("We moved to AWS last year.")] == []
    assert [f.value for f in extract("We're not moving to Postgres until June.")] == []


# A second review (d2120c7): each case below failed there.


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("After that I moved to Leeds.", "Leeds"),  # a phrase before the statement supposes nothing
        ("When I retired I moved to Spain.", "Spain"),
        ("After uni I moved to London.", "London"),
        ("Did I tell you I moved to Lisbon?", "Lisbon"),  # a question about a statement states it
        ("Once I move to Manchester I'll get a dog.", None),  # what leads the statement still supposes
        ("Should I move to Berlin and start over?", None),
    ],
)
def test_only_a_word_right_before_the_statement_supposes_it(text: str, value: str | None) -> None:
    assert [f.value for f in extract(text) if f.key == "location"] == ([] if value is None else [value])


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I work at 3M.", "3M"),  # a name that starts with a digit
        ("I work at 7-Eleven.", "7-Eleven"),
        ("I'm working at Google.", "Google"),
        ("I'm working at Christmas.", None),  # a shift, not a job
        ("I'm working at Glastonbury this weekend.", None),
        ("I'm working at Heathrow today.", None),
    ],
)
def test_a_shift_is_no_employer_and_a_digit_starts_a_name(text: str, employer: str | None) -> None:
    assert [f.value for f in extract(text) if f.key == "employer"] == ([] if employer is None else [employer])


@pytest.mark.parametrize(
    "text",
    [
        "The party was great, I ended up staying.",
        "It's snowing so I'm staying put.",
        "The film was boring but I decided to stay.",
    ],
)
def test_staying_calls_off_a_move_only_after_all(text: str) -> None:
    assert [f for f in extract(text) if f.withdraws] == []


def test_a_team_move_put_off_plans_no_home(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in London.")
    say(mem, user_id, SAID, "The move to AWS has been postponed until May.")
    got = mem.facts.get(user_id, "location", as_of=datetime(2026, 5, 2, tzinfo=UTC))
    assert got is not None and got.value == "London"


def test_a_less_precise_date_of_the_same_plan_keeps_its_day(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, datetime(2026, 3, 2, 9, tzinfo=UTC), "I live in Leeds.")
    say(mem, user_id, SAID, "I'm moving to Manchester on April 12th.")
    say(mem, user_id, SAID + timedelta(days=5), "I'm moving to Manchester next month!")
    current = mem.facts.get(user_id, "location")
    assert current is not None and (current.value, current.valid_from.date().isoformat()) == (
        "Manchester",
        "2026-04-12",
    )


def test_a_plan_put_off_twice_in_one_sentence_takes_the_last_date() -> None:
    text = "The move got pushed back to June, then to July."
    (fact,) = extract(text)
    assert fact.span is not None and moved_start(text, fact.span, SAID) == datetime(2026, 7, 1, tzinfo=UTC)


FAMILIES = [  # one or more sentences per pattern family of plan_patterns, calloff_patterns, state_patterns
    "I'm not moving to Manchester after all.",
    "The move is off.",
    "The Manchester move is off, sadly.",
    "I didn't end up moving to Sheffield.",
    "We've decided to stay in Glasgow after all.",
    "I've called off the move.",
    "I'm not starting at Spotify after all.",
    "I'm not taking the job after all.",
    "The move to Oslo fell through.",
    "The job offer at Spotify was withdrawn.",
    "Monzo withdrew the offer.",
    "I turned the Monzo offer down.",
    "I declined the position.",
    "The move got pushed back to June.",
    "We've postponed the move to Oslo until June.",
    "My start date at Spotify was moved to May 4.",
    "I'm not moving to Leeds until June.",
    "I'm not starting at Spotify until March.",
    "Emma lives in Lisbon now.",
    "My sister Emma moved to Porto.",
    "My brother works at Acme.",
    "Tom works as a photographer.",
    "Emma will be moving to Porto next month.",
    "Emma isn't moving to Porto after all.",
    "Emma isn't moving to Porto until June.",
    "I'm moving to Oslo in May instead of Manchester.",
    "We moved to Harrogate last weekend.",
    "Sorry, I meant Liverpool, not Manchester.",
    "I said Monzo but I meant Revolut.",
    "I'm based in Denver and I rent a flat in Brighton.",
    "I got a job at Airbus and relocated from Madrid to Toulouse.",
    "My job at Tesco is fine; I've been at Tesco for two years.",
    "I work as a nurse at St. Mary's, I joined as a trainee.",
    "I moved to Leeds for a new job at the BBC.",
    # round 42's wordings (graphmem.model.state_patterns, the new WITHDRAWN / PUT_OFF / ENDINGS entries)
    "I'm a UX designer at Figma.",
    "I'm contracting for Network Rail now.",
    "Home is Leipzig at the moment.",
    "I'm in Sacramento, CA.",
    "So I've been in Salt Lake City since June!",
    "Moved back home to Swansea last month.",
    "I'm joining Dyson on 4 January.",
    "The Winchester flat fell through.",
    "I've decided not to go to Graphcore after all.",
    "the role's been cut so the offer's gone.",
    "Aston Martin have pushed my start back to the 1st of March.",
    "The Pittsburgh move is now January 8th.",
    "We're moving on 15 January instead!",
    "My last day was Friday.",
    "Retired from the council in October.",
    "We're going to Brisbane instead of Sydney.",
    "I declined Monzo.",
    "The move is now on the 20th.",
    # a plan called off by its home's words alone (no word of _PLAN_WORDS: "flat", "house", "sale")
    "The house in Poole is off.",
    "Our Manchester flat is on hold.",
    "The Leeds house purchase was cancelled.",
    "Nothing about any of that today.",
]


def test_the_word_filters_skip_no_turn_a_pattern_would_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheap word filters before the call-off and someone-else patterns (3/4 of turns hold none of
    their words) change no result: with filters that pass everything, every family extracts the same."""
    want = [extract(text) for text in FAMILIES]
    assert sum(1 for facts in want if facts) == len(FAMILIES) - 1
    everything = re.compile("")
    for name in ("_PLAN_WORDS", "_PLANNED_WORDS", "_ABOUT_OTHERS_WORDS", "_MOVE_WORDS", "_CORRECTION_WORDS"):
        monkeypatch.setattr(fact_changes, name, everything)
    monkeypatch.setattr(fact_changes, "ENDINGS_CHECK", everything)
    monkeypatch.setattr(fact_changes, "WORDS", defaultdict(lambda: everything))
    monkeypatch.setattr(fact_patterns, "_WORDS", {})
    monkeypatch.setattr(fact_patterns, "GATE", everything)
    assert [extract(text) for text in FAMILIES] == want


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The house in Poole is off.", "Poole"),
        ("Our Manchester flat is on hold.", "Manchester"),
        ("The Winchester flat is off.", "Winchester"),
        ("The Leeds house purchase was cancelled.", "Leeds"),
    ],
)
def test_a_home_called_off_by_its_own_words_is_read(text: str, value: str) -> None:
    """The call-off patterns of a flat or a house named (calloff_patterns.WITHDRAWN) hold no word of the
    turn-wide filter of fact_changes.withdrawals: it must let them through."""
    assert [(f.key, f.value, f.withdraws) for f in extract(text)] == [("location", value, True)]


# A third review (88311df): each case below failed there.


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("In May I moved to Leeds.", "location", "Leeds"),  # the month, not the modal "may"
        ("Last May I started a new job at Google.", "employer", "Google"),
        (
            "I'm working at Google and I have a big meeting tomorrow.",
            "employer",
            "Google",
        ),  # another clause's time
        ("I'm working at Google until I find something better.", "employer", "Google"),
        ("I work at 24 Hour Fitness.", "employer", "24 Hour Fitness"),
    ],
)
def test_a_statement_the_third_review_found_dropped_is_read(text: str, key: str, value: str) -> None:
    assert [f.value for f in extract(text) if f.key == key and not f.withdraws] == [value]


@pytest.mark.parametrize(
    ("text", "stays"),
    [
        ("I decided to remain in Leeds.", True),  # "remain" passes the word filter
        ("I'm not staying in Leeds after all.", False),  # a stay denied
        ("I'm staying in Leeds for now.", False),  # for now is no end of a plan
        ("Right now I'm staying in Leeds.", False),
    ],
)
def test_a_stay_at_home_is_read_only_when_it_ends_a_plan(text: str, stays: bool) -> None:
    assert [f.value for f in extract(text) if f.stays] == (["Leeds"] if stays else [])


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("I moved to the UK in 2019 and now live in Leeds.", [("Leeds", False)]),  # the value said last
        ("I won't be moving away from York after all.", [("York", True)]),  # a stay at home
        ("I'm staying put tonight, I decided I'm too tired.", []),  # staying put is not read: a night's too
        ("I'm moving to York next month but for now I live in Leeds.", [("York", False), ("Leeds", False)]),
        ("I'll be living in London for the summer.", []),  # a stay, not a move
        ("I'll be living in Leeds forever.", []),  # no date: no plan
        ("I'll live in hope.", []),
    ],
)
def test_the_last_value_said_a_move_ahead_beside_it_and_no_stays(
    text: str, facts: list[tuple[str, bool]]
) -> None:
    assert [(f.value, f.withdraws) for f in extract(text) if f.key == "location"] == facts


@pytest.mark.parametrize("text", ["I work from Monday to Friday.", "The sale runs from May to June."])
def test_a_range_from_one_day_or_month_to_another_is_no_date(text: str) -> None:
    assert resolve_dates(text, SAID) == []


def test_the_start_of_the_year_said_in_december_is_next_years() -> None:
    text = "I'm moving to Leeds at the start of the year."
    (fact,) = extract(text)
    said = datetime(2026, 12, 1, 10, tzinfo=UTC)
    assert fact_start(text, fact.span, said, ahead=fact.ahead) == datetime(2027, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("named", "ends"), [("Manchester", True), ("York", False), ("", True)])
def test_an_ending_names_its_value_as_a_withdrawal_names_a_plan(named: str, ends: bool) -> None:
    """One naming rule for endings and withdrawals: a whole value, or the first words of it or of one of its
    comma-separated parts ("I no longer live in Manchester" ends "Ancoats, Manchester"; "York" is not "New
    York")."""
    value = "Ancoats, Manchester" if named != "York" else "New York"
    current = CurrentFact("v1", value, datetime(2026, 1, 5, tzinfo=UTC), Source.USER, 1)
    end = FactInput("u", "location", named, FactType.PROFILE, valid_from=SAID, ends=True)
    out = facts.plan([end], {("u", None, "location"): current}, SAID)
    assert ([c["id"] for c in out.close] == ["v1"]) == ends


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I've been at Tesco for two years but left my badge at home.", "Tesco"),  # not a job left
        ("I started at Ericsson last week and left early today.", "Ericsson"),
        ("I started at Ericsson in 2019 and left in 2022.", None),  # a job left: no employer now
        ("I've been at Tesco for two years and then left.", None),
        ("I've been at Tesco for two years but I left last month.", None),
    ],
)
def test_a_job_left_after_it_is_told_from_leaving_something_else(text: str, employer: str | None) -> None:
    got = [f.value for f in extract(text) if f.key == "employer" and not f.ends]
    assert got == ([employer] if employer else [])
