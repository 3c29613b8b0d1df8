"""A user correcting where they said they live or work, in the words people use beside "I meant X, not Y": a
slip owned with the right value alone ("I said that wrong, it's Commerzbank"), the value said before set
against the right one ("I said Wellington but we're actually in Palmerston North"), a plan's date corrected
("the move is 21 January, not the 12th"), and a country then a place in it ("I live in Austria, in
Salzburg"). First what a turn states (pure), then conversations on the real server, then sentences with the
same words that correct nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conversation import NOW, history, on, say, value_at

from graphmem import GraphMemory
from graphmem.model.fact_patterns import extract
from graphmem.model.fact_versions import SAID_WRONG
from graphmem.model.planned import moved_start


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("I live in Austria, in Salzburg.", "Salzburg"),
        ("We live in the UK, in Leeds, near the river.", "Leeds"),
        ("I live in Texas, in Austin and love it.", "Austin"),
        ("I live in Salzburg, Austria.", "Salzburg, Austria"),  # the place first: as said
        ("I live in Spain, in a flat.", "Spain"),  # no place inside
        ("I live in London, in Camden.", "London"),  # a city first: as said (no country to narrow)
    ],
)
def test_a_country_then_a_place_in_it_is_the_place(text: str, place: str) -> None:
    assert [(f.key, f.value) for f in extract(text)] == [("location", place)]


@pytest.mark.parametrize(
    ("text", "key", "right", "wrong"),
    [
        # a slip owned, the right value alone: the key it fits, the wrong one its current value (or named)
        # (naming no wrong value, only in a message of a home or a job: "My bad, it's Zoom." corrects nothing)
        (
            "wait no, I said that wrong, it's Commerzbank. Work's been mad.",
            "employer",
            "Commerzbank",
            SAID_WRONG,
        ),
        (
            "wait no, I said that wrong, it's Commerzbank. Deutsche Bank was my old job.",
            "employer",
            "Commerzbank",
            "Deutsche Bank",
        ),
        ("My mistake - it's Ocado. Long week at work.", "employer", "Ocado", SAID_WRONG),
        ("Typo, it should be Innsbruck. That's where I live.", "location", "Innsbruck", SAID_WRONG),
        (
            "I got that wrong, we're actually in Dunedin, we moved last year.",
            "location",
            "Dunedin",
            SAID_WRONG,
        ),
        ("I misspoke, I meant Lidl. Long day at work.", "employer", "Lidl", SAID_WRONG),
        # the value said before against the right one
        (
            "Sorry, earlier I said Wellington but we're actually in Palmerston North, Wellington is where my "
            "parents live.",
            "location",
            "Palmerston North",
            "Wellington",
        ),
        ("I said Rome, I meant Paris.", "location", "Paris", "Rome"),
        ("I told you Acme but I actually work at Initech.", "employer", "Initech", "Acme"),
        ("Sorry - not Leeds, Bradford.", "location", "Bradford", "Leeds"),
        # "I meant X, not Y" as before (offered to every key: the engine finds the one Y names)
        ("Sorry, typo, I meant Innsbruck, not Salzburg.", "location", "Innsbruck", "Salzburg"),
    ],
)
def test_a_correction_in_other_words(text: str, key: str, right: str, wrong: str) -> None:
    fixed = [(f.key, f.value, f.corrects) for f in extract(text) if f.corrects]
    assert (key, right, wrong) in fixed, fixed
    if wrong == SAID_WRONG:  # the current value of the key the right one fits, no other
        assert len(fixed) == 1, fixed


@pytest.mark.parametrize(
    ("text", "key", "day"),
    [
        ("correction: the move is 21 January, not the 12th", "location", datetime(2027, 1, 21, tzinfo=UTC)),
        (
            "Sorry, my start date is the 3rd of May, not the 5th.",
            "employer",
            datetime(2027, 5, 3, tzinfo=UTC),
        ),
    ],
)
def test_a_date_corrected_alone_puts_the_plan_to_it(text: str, key: str, day: datetime) -> None:
    (f,) = extract(text)
    assert (f.key, f.value, f.withdraws, f.put_off) == (key, "", True, True)
    assert f.span is not None
    moved = moved_start(text, f.span, on(2))
    assert moved is not None and moved.date() == day.date()


def test_a_date_ruled_out_after_a_put_off_is_not_its_date() -> None:
    text = "The move got pushed back to March, not February."
    (f,) = extract(text)
    moved = moved_start(text, f.span or (0, 0), on(2))
    assert moved is not None and (moved.year, moved.month) == (2027, 3)


@pytest.mark.parametrize(
    "text",
    [
        "I said hi to Tom, it's his birthday",
        "Sorry, I meant to ask about Rome",
        "not Monday, Tuesday works better for the dentist",
        "Sorry, not Monday, Tuesday.",  # a day is no place or firm
        "My bad, it's Tuesday.",
        "My bad, it's Zoom.",  # (a slip with no home's or job's word)
        "Scratch that, I meant Netflix, the show is on Netflix",
        "Sorry, I said that wrong, it's the Hilton.",
        "My mistake, it's Tom's turn.",
        "I said Rome but I'm in Paris for the weekend.",  # no "actually", no "meant": a trip
        "I told you Tom would come, but he's actually sick.",
        "Typo, it should be their.",
        "Not Leeds, Bradford is where the match is.",
        "The meeting is 21 January, not the 12th.",  # no move
        "I said that wrong, it's a great idea.",
        "My bad, I'm at Tesco, be there soon.",  # late, not a job corrected
    ],
)
def test_the_same_words_correct_nothing(text: str) -> None:
    assert not [f for f in extract(text) if f.corrects or f.put_off], extract(text)


# --- on the real server -----------------------------------------------------------------------------------


def test_a_place_inside_a_country_corrected(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Austria, in Salzburg.")
    assert value_at(mem, user_id, "location", NOW) == "Salzburg", history(mem, user_id)
    say(mem, user_id, on(2), "Sorry, typo, I meant Innsbruck, not Salzburg.")
    assert value_at(mem, user_id, "location", NOW) == "Innsbruck", history(mem, user_id)


def test_a_slip_owned_corrects_the_key_the_value_fits(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Leeds.")
    say(mem, user_id, on(1), "I work at Deutsche Bank.")
    say(mem, user_id, on(2), "wait no, I said that wrong, it's Commerzbank. Deutsche Bank was my old job.")
    assert value_at(mem, user_id, "employer", NOW) == "Commerzbank", history(mem, user_id, "employer")
    assert value_at(mem, user_id, "location", NOW) == "Leeds", history(mem, user_id)


def test_a_slip_owned_without_the_wrong_value_corrects_the_current_one(
    mem: GraphMemory, user_id: str
) -> None:
    say(mem, user_id, on(1), "I work at Deutsche Bank.")
    say(mem, user_id, on(2), "My mistake, it's Commerzbank. Work's been hectic.")
    assert value_at(mem, user_id, "employer", NOW) == "Commerzbank", history(mem, user_id, "employer")
    assert value_at(mem, user_id, "employer", on(1)) == "Commerzbank", history(mem, user_id, "employer")


def test_the_value_said_before_set_against_the_right_one(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "We live in Wellington.")
    say(
        mem,
        user_id,
        on(2),
        "Sorry, earlier I said Wellington but we're actually in Palmerston North, Wellington is where my "
        "parents live.",
    )
    assert value_at(mem, user_id, "location", NOW) == "Palmerston North", history(mem, user_id)


def test_a_plan_date_corrected_alone(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Oslo. Moving to Bergen on 12 January.")
    say(mem, user_id, on(2), "correction: the move is 21 January, not the 12th")
    at = {d: value_at(mem, user_id, "location", datetime(2027, 1, d, 12, tzinfo=UTC)) for d in (13, 21)}
    assert at == {13: "Oslo", 21: "Bergen"}, history(mem, user_id)


def test_a_correction_naming_another_value_changes_nothing(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I work at Deutsche Bank.")
    say(mem, user_id, on(2), "I said Barclays, I meant HSBC.")
    assert value_at(mem, user_id, "employer", NOW) == "Deutsche Bank", history(mem, user_id, "employer")
