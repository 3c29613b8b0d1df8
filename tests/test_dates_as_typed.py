"""Dates as people type them to an assistant (pure rules, no database): a weekday with its day of the month,
weekdays and "tomorrow" written short, a weekday said without a word before it, a note of what comes with
its clock time. Round 65, from the misses of the blind assistant sets (benchmarks/assistant.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.model import date_tense
from graphmem.model.dates import resolve_dates


def days(text: str, said: str) -> list[tuple[str, str]]:
    """(phrase, first day) of each expression ``text`` resolves to, said at 09:00 UTC on ``said``."""
    found = resolve_dates(text, datetime.fromisoformat(f"{said}T09:00+00:00"))
    return [(r.phrase, r.start.date().isoformat()) for r in found]


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        # said on Tuesday 27 October 2026: "for Tuesday" alone is the 3rd; with "the 10th" it is one day
        ("cabinet install is scheduled for Tuesday the 10th", "2026-10-27", "2026-11-10"),
        # said on Sunday 1 November: "this Saturday" alone went back to 31 October
        ("booked Rasika for Farid's birthday dinner, this Saturday the 7th at 7", "2026-11-01", "2026-11-07"),
        ("got an appt with Dr Patel friday the 13th 10 oclock", "2026-11-03", "2026-11-13"),
        ("dentist at Smile Clinic thu 22nd 9am", "2026-10-09", "2026-10-22"),
        ("My check-up is fixed for Thursday, 12th November at 11 am.", "2026-11-01", "2026-11-12"),
        ("demo day w/ the portfolio cos is wed 11/11, 2pm", "2026-11-06", "2026-11-11"),
        ("parents evening is Thu 10/12", "2026-11-20", "2026-12-10"),  # day/month: the one on a Thursday
        ("Ife's recital is Sat Oct 24", "2026-09-29", "2026-10-24"),
        ("We went out Saturday the 5th", "2026-09-17", "2026-09-05"),  # the nearest, back as well
    ],
)
def test_a_weekday_with_its_day_names_that_one_day(text: str, said: str, day: str) -> None:
    """Together a weekday and a day of the month name one day, the nearest that falls on that weekday: where
    each went by tense alone, "Tuesday the 10th" said on 27 October was the 3rd, or no date at all."""
    assert [d for _, d in days(text, said)] == [day]


@pytest.mark.parametrize(
    "text",
    [
        "supplier meeting w/ the wine guys friday 11",  # eleven o'clock, not the 11th (no Friday 11th near)
        "I sat the 3rd paper this morning and the 4th tomorrow",  # "sat" the verb: the 3rd is no day of it
        "Tuesday the 11th works for me",  # a slip (the 11th is a Wednesday): no day rather than a guess
    ],
)
def test_a_weekday_and_a_number_that_name_no_day(text: str) -> None:
    """No day is read from the weekday and the number together (the words alone may still be read)."""
    found = days(text, "2026-11-02")
    assert not any(any(c.isdigit() for c in phrase) for phrase, _ in found), found


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        ("first scrimmage vs. Grady HS next Tue 6pm", "2026-10-04", "2026-10-06"),
        ("see you on sat!", "2026-09-17", "2026-09-19"),  # "sat" after "on": the day, not the verb
        ("physio booked mon 9am w/ Jess", "2026-09-27", "2026-09-28"),
        ("kuba has his trial sat 10am at scotstoun", "2026-11-04", "2026-11-07"),  # "sat 10am": no verb
        ("Mammogram Tuesday at 8:15, Akademiska sjukhuset.", "2026-11-05", "2026-11-10"),  # no tense, a time
        ("booked 4 new tyres thurs 8.30, 260 all in", "2026-11-03", "2026-11-05"),
        ("Thursday I have the team offsite at the lake house", "2026-11-06", "2026-11-12"),  # opening
        ("tmrw: dentist 9am then shift 6pm", "2026-11-11", "2026-11-12"),
        ("see you 2moro", "2026-11-11", "2026-11-12"),
        ("Anmeldung appointment on the 16th at 8:15. do not forget passport", "2026-09-11", "2026-09-16"),
        ("planning a bike trip to copenhagen end of sept", "2026-09-13", "2026-09-24"),
    ],
)
def test_a_day_as_people_type_it(text: str, said: str, day: str) -> None:
    """Weekdays and "tomorrow" written short, a weekday with no word before it where a clock time or the
    sentence's start says it is a day, and a note of what comes with its time (no tense: ahead); before round
    65 none of these was a date, or the day of the month went back (the 16th said on the 11th: 16 August)."""
    assert [d for _, d in days(text, said)][:1] == [day]


@pytest.mark.parametrize(
    "text",
    [
        "I sat down at 2 and the sun was out",
        "we sat at 2 tables by the window",
        "they were wed in a small chapel",
        "paid 40 for sat nav",
        "Sunday school was fun",
        "Monday mornings are the worst",
        "lab meeting every thurs 10am",
        "Per has Saga Monday-Wednesday from now on",
    ],
)
def test_words_that_only_look_like_weekdays_or_habits_name_no_day(text: str) -> None:
    assert days(text, "2026-09-17") == []


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        # the review of round 65: a past verb before a clock time still says the past
        ("We met at 7pm on Friday and talked for hours", "2026-11-04", "2026-10-30"),
        ("Leo won at 3pm on Saturday", "2026-11-04", "2026-10-31"),
        ("Our flight left at 6:40 on Tuesday", "2026-11-04", "2026-11-03"),
        ("what have I got on friday?", "2026-11-04", "2026-11-06"),  # "have I got": no past
        ("We went out Saturday the 5th", "2026-10-22", "2026-09-05"),  # the tense picks of 5 Sep / 5 Dec
        ("Thursday, 12th November 2015 was my first day", "2026-11-05", "2015-11-12"),  # its year said
        ("dentist thurs 8.30", "2026-11-03", "2026-11-05"),
    ],
)
def test_a_day_read_the_way_its_clause_says(text: str, said: str, day: str) -> None:
    assert [d for _, d in days(text, said)][:1] == [day]


@pytest.mark.parametrize(
    "text",
    [
        "lying on sun loungers all afternoon",
        "I rely on sat nav way too much",
        "this sun is brutal",
        "she's moving to the next sun belt state",
        "the sun at noon was unbearable",
        "they were wed at 3pm in a tiny chapel",
        "we sat at 2pm and waited",
        "we sat 1/2 an hour in traffic",
        "I sat 2nd in the race",
        "Tuesday 2nd attempt at the driving test went well",
        "Monday - Friday I work at the office",
        "TMR scan results came back",
    ],
)
def test_more_words_that_only_look_like_days(text: str) -> None:
    """The review of round 65 (each was read as a day by the round's first version)."""
    assert days(text, "2026-11-04") == []


def test_a_clause_is_searched_for_a_clock_time_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The note rule read each date's whole clause again: 20,000 characters of "on the 16th" took seconds."""
    calls = 0
    real = date_tense.CLOCK

    class Counting:
        def search(self, *args: object) -> object:
            nonlocal calls
            calls += 1
            return real.search(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(date_tense, "CLOCK", Counting())
    found = resolve_dates("dentist on the 16th " * 300, datetime(2026, 11, 4, 9, tzinfo=UTC))
    assert len(found) == 300 and calls == 1
