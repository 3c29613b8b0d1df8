"""Relative date expressions resolved against a message's time (pure rules, no database)."""

from __future__ import annotations

import sys
from datetime import UTC, date, datetime, timedelta, timezone
from types import FrameType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.model import dates
from graphmem.model.date_queries import date_words, query_dates
from graphmem.model.dates import _may_hold_date, _overlaps, _resolve, event_range, resolve_dates
from graphmem.model.planned import moved_start

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def spans(text: str, ref: datetime = REF) -> list[tuple[str, str, str]]:
    return [
        (r.start.date().isoformat(), r.end.date().isoformat(), r.granularity)
        for r in resolve_dates(text, ref)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went to a support group yesterday.", ("2023-05-07", "2023-05-08", "day")),
        ("We stayed in last night.", ("2023-05-07", "2023-05-08", "day")),
        ("It is raining today.", ("2023-05-08", "2023-05-09", "day")),
        ("See you tomorrow!", ("2023-05-09", "2023-05-10", "day")),
        ("the day before yesterday I ran", ("2023-05-06", "2023-05-07", "day")),
        ("Last week I painted a sunrise.", ("2023-05-01", "2023-05-08", "week")),
        ("This week is busy.", ("2023-05-08", "2023-05-15", "week")),
        ("We're going camping next month!", ("2023-06-01", "2023-07-01", "month")),
        ("Last month was hard.", ("2023-04-01", "2023-05-01", "month")),
        ("I ran a charity race two weeks ago.", ("2023-04-24", "2023-05-01", "week")),
        ("I started 3 days ago.", ("2023-05-05", "2023-05-06", "day")),
        ("a few days ago we met", ("2023-05-04", "2023-05-07", "day")),
        ("a year ago I moved", ("2022-01-01", "2023-01-01", "year")),
        ("Last year I adopted a dog.", ("2022-01-01", "2023-01-01", "year")),
        ("We will move in three months.", ("2023-08-01", "2023-09-01", "month")),
        ("I went hiking on Friday.", ("2023-05-05", "2023-05-06", "day")),
        ("I'll see you on Friday.", ("2023-05-12", "2023-05-13", "day")),
        ("last Monday", ("2023-05-01", "2023-05-02", "day")),
        ("next Monday", ("2023-05-15", "2023-05-16", "day")),
        ("What about this weekend?", ("2023-05-13", "2023-05-15", "day")),
        ("I visited Paris in June.", ("2022-06-01", "2022-07-01", "month")),
        ("We will visit Paris in June.", ("2023-06-01", "2023-07-01", "month")),
        ("last May", ("2022-05-01", "2022-06-01", "month")),
        ("It was in March 2021.", ("2021-03-01", "2021-04-01", "month")),
        ("on May 7th, 2022", ("2022-05-07", "2022-05-08", "day")),
        ("on the 3rd of March", ("2023-03-03", "2023-03-04", "day")),
        ("We married in 2019.", ("2019-01-01", "2020-01-01", "year")),
        ("Deadline 2023-01-02.", ("2023-01-02", "2023-01-03", "day")),
        ("last summer was hot", ("2022-06-01", "2022-09-01", "season")),
        ("this summer we travel", ("2023-06-01", "2023-09-01", "season")),
        ("in the summer of 2021", ("2021-06-01", "2021-09-01", "season")),
    ],
)
def test_expressions_resolve_to_their_range(text: str, expected: tuple[str, str, str]) -> None:
    assert spans(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "May I ask you something?",
        "I have a second dog.",
        "I am 5 years old and I go to school now.",
        "Hi Mel! How have you been?",
        "The march was long.",
        "She said it in 12 words.",
    ],
)
def test_everyday_words_are_not_dates(text: str) -> None:
    assert resolve_dates(text, REF) == []


def test_several_expressions_in_text_order_and_their_span() -> None:
    ranges = resolve_dates("Yesterday I booked the flight for next month.", REF)
    assert [r.phrase for r in ranges] == ["Yesterday", "next month"]
    assert event_range(ranges) == (datetime(2023, 5, 7, tzinfo=UTC), datetime(2023, 7, 1, tzinfo=UTC))
    assert event_range([]) is None


def test_ranges_follow_the_reference_time_zone() -> None:
    tz = timezone(timedelta(hours=-5))
    ref = datetime(2023, 5, 8, 1, 0, tzinfo=UTC)  # still 7 May in UTC-5
    (r,) = resolve_dates("yesterday", ref.astimezone(tz))
    assert r.start == datetime(2023, 5, 6, tzinfo=tz)
    (naive,) = resolve_dates("yesterday", datetime(2023, 5, 8, 12, 0))
    assert naive.start.tzinfo is UTC


def test_date_words() -> None:
    (day,) = resolve_dates("yesterday", REF)
    assert date_words(day) == ["2023-05-07", "Sunday", "May", "2023"]
    (week,) = resolve_dates("two weeks ago", REF)
    assert date_words(week) == ["2023-04-24", "2023-04-30", "April", "2023"]
    (year,) = resolve_dates("last year", REF)
    assert date_words(year) == ["2022"]


def test_invalid_calendar_dates_yield_nothing() -> None:
    assert resolve_dates("on February 30", REF) == []
    assert resolve_dates("on 45 May", REF) == []


@given(
    ref=st.datetimes(
        min_value=datetime(1950, 1, 1), max_value=datetime(2090, 12, 31), timezones=st.just(UTC)
    ),
    n=st.integers(min_value=1, max_value=12),
    unit=st.sampled_from(["day", "week", "month", "year"]),
)
def test_n_units_ago_contains_the_shifted_day_and_is_before_the_reference(
    ref: datetime, n: int, unit: str
) -> None:
    (r,) = resolve_dates(f"{n} {unit}s ago", ref)
    assert r.start < r.end <= datetime.combine(ref.date(), datetime.min.time(), tzinfo=UTC) + timedelta(1)
    if unit == "day":
        assert r.start.date() == ref.date() - timedelta(days=n)
    if unit == "year":
        assert r.start.date() == date(ref.year - n, 1, 1)


@given(
    text=st.text(max_size=200),
    ref=st.datetimes(
        min_value=datetime(1950, 1, 1), max_value=datetime(2090, 12, 31), timezones=st.just(UTC)
    ),
)
def test_any_text_gives_well_formed_ranges(text: str, ref: datetime) -> None:
    for r in resolve_dates(text, ref):
        assert r.start < r.end
        assert r.phrase in text
        assert date_words(r)


# Words the patterns are made of, in several cases, a few that fold to them only under re.IGNORECASE
# (the long s, the Kelvin sign) and filler: texts made of these exercise every pattern.
_DATE_WORDS = [
    "last", "this", "next", "past", "coming", "in", "the", "on", "of", "since", "early", "by", "back",
    "a", "an", "couple", "few", "several", "two", "Three", "3", "12", "12th", "1st", "2023", "1999",
    "2023-05-07", "ago", "AGO", "day", "days", "week", "Weeks", "weekend", "month", "months", "year",
    "years", "night", "yesterday", "Yesterday", "tomorrow", "today", "tonight", "morning", "afternoon",
    "evening", "before", "after", "Monday", "friday", "SUNDAY", "spring", "Summer", "fall", "autumn",
    "winter", "May", "may", "June", "jun", "Sept", "sept.", "December", "Dec", "aug", "March", "mar.",
    "\u017fpring", "wee\u212aend", "\u017fept", "I", "went", "there", "walked", ",", ".", "!", "and",
    "tue", "Thurs", "fri", "sat", "Sun", "wed", "mon", "10am", "8:15", "at", "tmrw", "2moro", "tonite", "end",
    "11/11", "the 7th", ":", "-",
]  # fmt: skip


@given(
    words=st.lists(st.sampled_from(_DATE_WORDS), max_size=12),
    ref=st.datetimes(
        min_value=datetime(1950, 1, 1), max_value=datetime(2090, 12, 31), timezones=st.just(UTC)
    ),
)
def test_the_first_test_never_drops_a_date(words: list[str], ref: datetime) -> None:
    """resolve_dates skips texts that hold no digit and no date word; it must find what a search of every
    pattern finds (drop a word from the test's list and texts with it fail here)."""
    text = " ".join(words)
    assert resolve_dates(text, ref) == _resolve(text, ref)


def test_only_a_digit_or_a_date_word_passes_the_first_test() -> None:
    assert not _may_hold_date("Sounds great, I love that painting of yours!")
    assert _may_hold_date("See you on Friday")
    assert _may_hold_date("Back in 1999")
    assert _may_hold_date("wee\u212aend plans")  # non-ASCII: the patterns' own case folding


def test_a_question_date_expression_becomes_a_span_and_its_relative_words_stop_being_keywords() -> None:
    asked = query_dates("Where am I travelling later this year?", datetime(2026, 12, 1, tzinfo=UTC))
    assert asked.span == (datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC))
    assert asked.relative_words == {"year"}
    absolute = query_dates("What did Caroline do in May 2023?", REF)
    assert absolute.span is not None and absolute.span[0] == datetime(2023, 5, 1, tzinfo=UTC)
    assert absolute.relative_words == frozenset()  # month names and years stay keywords
    assert query_dates("What is my dog called?", REF) == type(asked)(None, frozenset())


def test_plans_and_wishes_resolve_forwards() -> None:
    march = datetime(2026, 3, 20, tzinfo=UTC)
    assert spans("I'm planning a trip to Japan in October.", march) == [("2026-10-01", "2026-11-01", "month")]
    assert spans("He wants to see Kyoto in autumn.", march)[0][0] == "2026-09-01"


def test_a_holiday_asked_of_without_its_year_names_no_day() -> None:
    """A question's holiday is no span ("What does Tim love during Halloween?" asks of every Halloween), as
    a statement's is a day ("We carved pumpkins at Halloween")."""
    at = datetime(2026, 12, 1, tzinfo=UTC)
    assert query_dates("What tradition does Tim love during Halloween?", at).span is None
    assert resolve_dates("We carved pumpkins at Halloween.", at)[0].granularity == "day"


def test_a_part_of_the_current_month_already_over_is_next_years_ahead() -> None:
    """ "the start of December" said on 20 December in a plan is next year's (as "the start of the year"
    said in December is), not the week already over; "the end of December" said then is this one."""
    at = datetime(2026, 12, 20, tzinfo=UTC)
    assert spans("I'll move at the start of December.", at) == [("2027-12-01", "2027-12-08", "week")]
    assert spans("I'll move at the end of December.", at) == [("2026-12-25", "2027-01-01", "week")]
    assert spans("I moved at the start of December.", at) == [("2026-12-01", "2026-12-08", "week")]
    assert spans("I'll move at the end of January.", at) == [("2027-01-25", "2027-02-01", "week")]
    assert spans("I'll move at the middle of February 2028.", at) == [("2028-02-11", "2028-02-18", "week")]
    # a plan put off to it is re-dated, not called off for want of a date ahead
    text = "The move got pushed back to the start of December."
    assert moved_start(text, (0, 26), at) == datetime(2027, 12, 1, tzinfo=UTC)


WIDTHS = st.integers(1, 8)


def _lines_run(text: str) -> int:
    """The lines of :mod:`graphmem.model.dates` run to resolve ``text`` (work counted without a clock)."""
    module, lines = dates.__file__, 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal lines
        lines += event == "line"
        return local

    def start(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename == module else None

    previous = sys.gettrace()
    sys.settrace(start)
    try:
        assert len(resolve_dates(text, REF)) == text.count(".")
    finally:
        sys.settrace(previous)
    return lines


def test_resolving_grows_with_the_dates_not_with_their_square() -> None:
    """Each match was checked against every span taken before it: 2,000 dates cost ~2,000² comparisons.
    Four times the dates now run about four times the lines (the scan: about twelve times)."""
    phrases = ["I left last May 3rd.", "It was 3 days ago.", "We met in 2019.", "See you on Friday."]
    few, many = (" ".join(phrases[i % 4] for i in range(n)) for n in (100, 400))
    assert _lines_run(many) < 5 * _lines_run(few)


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 5)), max_size=20), st.integers(0, 70), WIDTHS)
def test_the_overlap_bisection_agrees_with_a_scan(
    spans: list[tuple[int, int]], start: int, width: int
) -> None:
    """What the bisection over the taken spans (sorted, disjoint) answers is what the scan it replaced did."""
    taken: list[tuple[int, int]] = []
    for s, w in spans:  # disjoint, as _resolve keeps them
        if not any(s < e and b < s + w for b, e in taken):
            taken.append((s, s + w))
    taken.sort()
    end = start + width  # a span may also equal one taken, or touch it at either end
    assert _overlaps(taken, start, end) == any(start < e and s < end for s, e in taken)


SUNDAY = datetime(2026, 12, 6, 10, 0, tzinfo=UTC)  # Sunday 6 December 2026: the last Saturday is the 5th

# A bare weekday ("on Saturday") by the tense of its own clause, else its sentence: the day meant, said on
# SUNDAY. Written before the rule was (a lead's examples and others, past and present); the date asserted is
# what the sentence means, not what the rule happens to give.
TENSED_WEEKDAYS = [
    ("My son Leo has a football match on Saturday morning.", "2026-12-12"),
    ("I have a dentist appointment on Tuesday at 3pm.", "2026-12-08"),
    ("I'm seeing Ana on Friday.", "2026-12-11"),
    ("The party is on Saturday.", "2026-12-12"),
    ("Our flight leaves on Monday.", "2026-12-07"),
    ("I've got a job interview on Thursday.", "2026-12-10"),
    ("We're having a barbecue on Saturday, want to come?", "2026-12-12"),
    ("My mum is visiting on Wednesday.", "2026-12-09"),
    ("There's a school concert on Thursday evening.", "2026-12-10"),
    ("Leo plays his first match on Saturday.", "2026-12-12"),
    ("The shop opens on Monday.", "2026-12-07"),
    ("I'm so nervous about the exam on Friday.", "2026-12-11"),
    ("We are off to Paris on Friday.", "2026-12-11"),
    ("I start my new job on Monday.", "2026-12-07"),
    ("Can you pick the kids up on Thursday?", "2026-12-10"),
    ("I'd love to catch up on Saturday.", "2026-12-12"),
    ("I need to finish the report on Wednesday.", "2026-12-09"),
    ("My sister and I are running a half marathon on Saturday.", "2026-12-12"),
    ("The kids have a day off school on Friday.", "2026-12-11"),
    ("Is the gym open on Monday?", "2026-12-07"),
    ("I'm excited about the show on Saturday.", "2026-12-12"),
    ("From Friday I'm on holiday for two weeks.", "2026-12-11"),
    ("The party is on Saturday and I bought a new dress for it.", "2026-12-12"),
    ("I ran 10k in 52 minutes on Saturday.", "2026-12-05"),
    ("On Friday, I got great news - I'm finally in the program.", "2026-12-04"),
    ("I won my fourth video game tournament on Friday!", "2026-12-04"),
    ("It was so much fun on Sunday.", "2026-11-29"),
    ("We had a barbecue on Saturday and it is still the talk of the street.", "2026-12-05"),
    ("I went to the farmers market on Saturday.", "2026-12-05"),
    ("Leo scored two goals on Saturday.", "2026-12-05"),
    ("We finally finished painting the kitchen on Thursday.", "2026-12-03"),
    ("My sister visited us on Wednesday.", "2026-12-02"),
    ("I saw the new Bond film on Friday.", "2026-12-04"),
    ("The concert on Friday was amazing.", "2026-12-04"),
    ("We met my parents for lunch on Saturday, it was lovely.", "2026-12-05"),
    ("Did you watch the game on Saturday?", "2026-12-05"),
    ("I bought a new bike on Tuesday and I love it.", "2026-12-01"),
    ("I've been sore since the gym session on Monday.", "2026-11-30"),
    ("The kids loved the zoo on Thursday.", "2026-12-03"),
    ("I felt much better on Wednesday.", "2026-12-02"),
    ("We drove up to the lake on Friday and stayed the night.", "2026-12-04"),
    ("I'd finished the book on Tuesday, so I started another.", "2026-12-01"),
    # a future word in another sentence is not this one's (it was searched over the whole text)
    ("I ran 10k on Saturday. Next week I'll aim for 50 minutes.", "2026-12-05"),
    ("On Friday, I got great news! Next month, I'm off to Ireland for a semester.", "2026-12-04"),
    ("Lunch with Ana on Friday.", "2026-12-04"),  # no tense to read: backwards, as before
    pytest.param(  # present "I'm" about a past day: the rule's known miss
        "I'm still tired from the wedding on Saturday.", "2026-12-05", marks=pytest.mark.xfail(strict=True)
    ),
]


@pytest.mark.parametrize(("text", "day"), TENSED_WEEKDAYS)
def test_a_bare_weekday_goes_by_the_tense_of_its_own_clause(text: str, day: str) -> None:
    days = [r for r in resolve_dates(text, SUNDAY) if r.phrase.lower().endswith("day")]
    assert [(r.start.date().isoformat(), r.granularity) for r in days[:1]] == [(day, "day")]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("booked the car for an oil change on wednesday at 8am", "2026-12-09"),  # the booking is past
        ("I scheduled the plumber for Friday.", "2026-12-11"),
        ("Pine & Pond kickoff call is Monday at 2", "2026-12-07"),  # after a form of "be", no "on"
        ("The match is Saturday, we were so nervous", "2026-12-12"),
        ("It was Saturday when it happened", "2026-12-05"),
        ("I booked a table for Tuesday", "2026-12-08"),
        ("Thanks for Saturday, it was fun!", "2026-12-05"),
    ],
)
def test_a_weekday_arranged_or_said_after_be_goes_its_way(text: str, day: str) -> None:
    """Round 62, from a blind assistant set: a past verb that arranges what comes, and a weekday after "is"
    or "was" without "on" (which was no date at all)."""
    days = [r for r in resolve_dates(text, SUNDAY) if r.phrase.lower().endswith("day")]
    assert [r.start.date().isoformat() for r in days[:1]] == [day]


def test_a_caller_may_read_a_weekday_by_the_future_words_only() -> None:
    """A weekday goes by the future words only for a caller that asks (planned.fact_start: "I work at Arup, I
    have an interview on Monday" plans nothing for the job)."""
    interview = "I work at Arup, I have an interview on Monday."
    assert resolve_dates(interview, SUNDAY, by_tense=False)[0].start.date() == date(2026, 11, 30)
    assert resolve_dates(interview, SUNDAY)[0].start.date() == date(2026, 12, 7)
    seeing = resolve_dates("I'm seeing Ana on Friday.", SUNDAY, future=True)
    assert seeing[0].start.date() == date(2026, 12, 11)


@pytest.mark.parametrize(
    ("question", "day"),
    [
        ("What do I have on Saturday?", date(2026, 12, 12)),
        ("What's happening on Friday?", date(2026, 12, 11)),
        ("What did I do on Saturday?", date(2026, 12, 5)),
        ("Where was I on Friday?", date(2026, 12, 4)),
    ],
)
def test_a_question_asks_of_the_weekday_its_tense_says(question: str, day: date) -> None:
    start = datetime.combine(day, datetime.min.time(), UTC)
    assert query_dates(question, SUNDAY).span == (start, start + timedelta(days=1))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("remind me that my besties bday is the 30th", "2026-12-30"),  # after "is", no "on"
        ("Leah is visiting the weekend of the 19th", "2026-12-19"),
        ("the dentist moved me to the 3rd, same time", "2027-01-03"),  # moved to: ahead, so next month's
        ("I have a dentist appointment on the 2nd", "2027-01-02"),  # present: the coming 2nd
        ("I moved in on the 3rd", "2026-12-03"),  # past: this month's, already over
        ("The party was on the 12th", "2026-11-12"),  # past: the last 12th
        ("rent is due by the 28th", "2026-12-28"),
        ("Mark your calendar for the 22nd!", "2026-12-22"),  # aimed at: ahead
        ("the surgery got postponed to the 3rd", "2027-01-03"),  # the review of round 63: every moving verb
        ("my appt is the 4th at 10am", "2027-01-04"),
    ],
)
def test_a_day_of_the_month_goes_by_the_tense_of_its_clause(text: str, day: str) -> None:
    """Round 63, from a blind assistant set: a bare day of the month after "is", "of", "to" ("bday is the
    30th", "pushed to the 21st") was no date at all, and after "on" it went backwards unless a future word
    stood in the sentence ("I have an appointment on the 2nd" said on the 6th read as the 2nd already gone).
    It now goes as a bare weekday does: by the tense of its clause, a date something is moved to ahead."""
    found = [r for r in resolve_dates(text, SUNDAY) if r.granularity == "day"]
    assert [r.start.date().isoformat() for r in found[:1]] == [day]


@pytest.mark.parametrize(
    "text",
    [
        "This is the 3rd time it broke",
        "Our office is on the 5th floor",
        "We moved up to the 4th place",
        "she was the 4th woman across the line",  # the review of round 63
        "I was the 2nd fastest",
        "Mom is the 3rd of 5 kids",
        "What was the 3rd book I read?",
    ],
)
def test_an_ordinal_that_counts_is_no_day(text: str) -> None:
    assert resolve_dates(text, SUNDAY) == []


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("The festival is in May.", "2027-05-01"),  # until round 63: last May (the future words only)
        ("health inspection is in october sometime, they don't say when", "2027-10-01"),
        ("The festival was in May.", "2026-05-01"),
        ("We went to Spain in May", "2026-05-01"),
        ("I started the job in March and I love it", "2026-03-01"),
        ("The conference is next May", "2027-05-01"),  # a modifier says it, as before
        ("I was there last May", "2026-05-01"),
        ("the inspection was postponed until October", "2027-10-01"),
        ("I lived there until October", "2026-10-01"),
    ],
)
def test_a_month_after_in_goes_by_the_tense_of_its_clause(text: str, month: str) -> None:
    """Round 63: "the inspection is in October" said in September is the coming October; it went to the last
    one, as a bare month without a future word did."""
    assert [r.start.date().isoformat() for r in resolve_dates(text, SUNDAY)] == [month]


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        # round 63, from a blind assistant set: said in autumn, a day of the year without its year
        ("Ife's recital is Sat Oct 24 at 2pm at the Methodist church", "2026-09-29", "2026-10-24"),
        (
            "Doctor appt for me: endocrinologist Dr. Sultanova, 3 Nov 15:30, thyroid check",
            "2026-10-22",
            "2026-11-03",
        ),
        ("Mediation with Caroline and Julien: Monday 19 October 17h", "2026-10-09", "2026-10-19"),  # no tense
        ("I went to Paris on May 3", "2026-09-10", "2026-05-03"),  # past: the last
        ("My birthday is on March 3", "2026-09-10", "2027-03-03"),  # present: the coming one
        ("We met on 14 February 2020", "2026-09-10", "2020-02-14"),  # its year said
    ],
)
def test_a_day_of_the_year_goes_by_its_clause_else_the_nearest(text: str, said: str, day: str) -> None:
    """Until round 63 a day of the year without its year went to the last one without a future word, so "the
    recital is Sat Oct 24" said on 29 September was a year ago; "3 Nov 15:30" read "Nov 15"."""
    found = resolve_dates(text, datetime.fromisoformat(f"{said}T09:00+00:00"))
    assert [r.start.date().isoformat() for r in found] == [day]


@pytest.mark.parametrize(
    "text",
    [
        "I moved to Paris on May 3.",
        "My life changed when I moved to Paris on May 3.",
        "She changed to a new school on Feb 2.",
        "I shifted to the night shift on Saturday.",
    ],
)
def test_a_move_to_a_place_or_a_thing_dates_nothing_ahead(text: str) -> None:
    """The second review of round 63: a moving verb with "to" made its clause arrange what comes, so a past
    move was dated a year ahead; only a move to a time does ("bumped to the 19th")."""
    said = datetime(2026, 9, 29, 9, tzinfo=UTC)
    assert all(r.start < said for r in resolve_dates(text, said)), text
