"""Dates said with a change: a calendar date ends the value before it ("I'm moving to Manchester on January
15th" names Manchester), a day of the year already past is the coming one in a sentence about the future,
"on the 15th" is a day of this or the next month, and a change said to come later without a date the rules
read ("at the end of the summer holidays") is no fact yet. Pure rules."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graphmem.model.dates import resolve_dates
from graphmem.model.fact_patterns import extract
from graphmem.model.planned import fact_start, later_unnamed

DECEMBER = datetime(2026, 12, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "value", "start"),
    [
        ("I'm moving to Manchester on January 15th.", "Manchester", date(2027, 1, 15)),
        ("I'll be moving to Manchester on 15 January.", "Manchester", date(2027, 1, 15)),
        ("I'm moving to Cardiff on the 15th.", "Cardiff", date(2026, 12, 15)),
        ("I'm starting my new job at Google on the 15th.", "Google", date(2026, 12, 15)),
        ("I'm starting a new job at Monzo on January 11th.", "Monzo", date(2027, 1, 11)),
        ("I'm moving to Manchester on December 20th.", "Manchester", date(2026, 12, 20)),
        ("I'm moving to Cardiff in early January.", "Cardiff", date(2027, 1, 1)),
    ],
)
def test_a_dated_change_names_its_value_and_its_coming_date(text: str, value: str, start: date) -> None:
    (fact,) = extract(text)
    assert fact.value == value
    got = fact_start(text, fact.span, DECEMBER, future=fact.planned, ahead=fact.ahead)
    assert got is not None and got.date() == start


@pytest.mark.parametrize(
    ("text", "future", "day"),
    [
        ("on January 15th", True, date(2027, 1, 15)),
        # no tense said and no future word: the nearest (round 63; the last one before, 11 months back)
        ("on January 15th", False, date(2027, 1, 15)),
        ("on November 20th", False, date(2026, 11, 20)),
        ("we went on January 15th", False, date(2026, 1, 15)),  # a past form says which way
        ("on December 1st", True, date(2026, 12, 1)),  # today is not past
        ("on the 15th", True, date(2026, 12, 15)),
        ("on the 15th", False, date(2026, 11, 15)),
        ("by the 1st", True, date(2026, 12, 1)),
        ("on the 31st", True, date(2026, 12, 31)),
        ("on the 31st", False, date(2026, 10, 31)),  # November has none
    ],
)
def test_a_day_without_a_year_is_the_nearest_one_that_way(text: str, future: bool, day: date) -> None:
    (found,) = resolve_dates(text, DECEMBER, future=future)
    assert found.start.date() == day


def test_a_holiday_told_in_the_past_is_the_last_one() -> None:
    (christmas,) = resolve_dates("We saw my mum at Christmas.", DECEMBER)
    assert (christmas.start.date(), christmas.granularity) == (date(2025, 12, 25), "day")


@pytest.mark.parametrize("text", ["the 15th century", "on the 3rd floor", "my 15th birthday", "the 40th"])
def test_an_ordinal_that_is_not_a_day_of_the_month_is_no_date(text: str) -> None:
    assert resolve_dates(text, DECEMBER) == []


@pytest.mark.parametrize(
    ("text", "later"),
    [
        ("I'm moving to Cardiff after Christmas.", True),
        ("I'm moving to Cardiff at the end of the summer holidays.", True),
        ("I'm moving to Cardiff soon.", True),
        ("I'm moving to Leeds, I got the job after a long search.", False),  # another phrase's "after"
        ("I'm moving to Leeds.", False),
    ],
)
def test_a_change_said_to_come_later_without_a_date(text: str, later: bool) -> None:
    (fact,) = extract(text)
    assert fact.span is not None and later_unnamed(text, fact.span) == later


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("I'm moving to Cardiff at the end of the month.", date(2026, 12, 25)),  # the month's last quarter
        ("I'll be moving to Oslo at the beginning of next month.", date(2027, 1, 1)),
        ("From next month I'll be living in Oslo.", date(2027, 1, 1)),
        ("We'll be living in Bath from March.", date(2027, 3, 1)),
        ("I'm moving to Leeds from Monday.", date(2026, 12, 7)),
        # a holiday: the coming one, and "after" it the day after
        ("I'm moving to Cardiff after Christmas.", date(2026, 12, 26)),
        ("I'm starting a new job at Monzo after New Year's Day.", date(2027, 1, 2)),
        ("I'll be moving to Oslo in the new year.", date(2027, 1, 1)),
    ],
)
def test_a_plan_said_with_a_part_of_a_period_or_from_a_date(text: str, start: date) -> None:
    (fact,) = extract(text)
    got = fact_start(text, fact.span, DECEMBER, future=fact.planned, ahead=fact.ahead)
    assert got is not None and got.date() == start
