"""Dates as keys and as questions (pure): the words a resolved range is searchable by, and the span a
question's date expressions cover (:mod:`graphmem.model.dates` resolves them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from graphmem.model.date_patterns import TOMORROW, WEEKDAYS_SHORT
from graphmem.model.date_tense import tense_of
from graphmem.model.dates import HOLIDAYS, MONTHS, WEEKDAYS, DateRange, add_months, event_range, resolve_dates

__all__ = ["QueryDates", "date_notes", "date_words", "overlaps", "query_dates", "query_span"]


def date_words(r: DateRange) -> list[str]:
    """Searchable words for a range: ISO dates, weekday (a day), month names and years it covers.

    A day gives ``2023-05-07 Sunday May 2023``; a week its first and last ISO dates and month(s); a month
    ``May 2023``; a year ``2022``. At most twelve months are spelled out.
    """
    start, last = r.start.date(), (r.end - timedelta(days=1)).date()
    words: list[str] = [start.isoformat()]
    if r.granularity == "day":
        words.append(WEEKDAYS[start.weekday()].capitalize())
    elif r.granularity == "week":
        words.append(last.isoformat())
    if r.granularity != "year":
        y, m = start.year, start.month
        for _ in range(12):
            if (y, m) > (last.year, last.month):
                break
            words.append(MONTHS[m - 1].capitalize())
            y, m = add_months(y, m, 1)
    years = range(start.year, last.year + 1)
    words.extend(str(y) for y in years)
    if r.granularity == "year":
        words.remove(start.isoformat())
    return list(dict.fromkeys(words))


_DEICTIC = frozenset(
    {
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "weekend",
        "weekends",
        "yesterday",
        "today",
        "tonight",
        "tomorrow",
        *TOMORROW,
        "tmr",
        "tonite",
        "ago",
        "last",
        "next",
        "past",
        "coming",
        "morning",
        "afternoon",
        "evening",
        "night",
    }
)
"""Words of a relative date expression that name no date by themselves: asked on another day they mean
another time, so a memory containing them is not a match for the question's date."""


@dataclass(frozen=True)
class QueryDates:
    """A question's date expressions: the span they cover and the relative words to drop from its keywords."""

    span: tuple[datetime, datetime] | None
    relative_words: frozenset[str]
    words: frozenset[str] = frozenset()  # every word of the expressions ("on", "wednesday", "tomorrow")

    @property
    def millis(self) -> tuple[int, int] | None:
        """The span as epoch milliseconds (how memories store their event ranges)."""
        s = self.span
        return None if s is None else (int(s[0].timestamp() * 1000), int(s[1].timestamp() * 1000))


_HOLIDAY = re.compile(rf"(?:after )?(?:the )?(?:{'|'.join(HOLIDAYS)})")
_ON_A_WEEKDAY = re.compile(rf"(?:on )?(?:{'|'.join([*WEEKDAYS, *sorted(WEEKDAYS_SHORT)])})", re.IGNORECASE)
_MONTH_WORDS = "|".join([*MONTHS, *(m[:3] for m in MONTHS), "sept"])
_FROM_A_MONTH = re.compile(rf"from (?:{_MONTH_WORDS})", re.IGNORECASE)
_AHEAD_IF = re.compile(rf"{_ON_A_WEEKDAY.pattern}|{_FROM_A_MONTH.pattern}", re.IGNORECASE)


def _reads_ahead(phrase: str, tense: bool | None) -> bool:
    """Whether a question's date phrase reads ahead for the question's tense (:func:`query_dates`)."""
    if _ON_A_WEEKDAY.fullmatch(phrase):
        return tense is None
    return tense is True and _FROM_A_MONTH.fullmatch(phrase) is not None


def query_dates(question: str, reference: datetime) -> QueryDates:
    """Resolve a question's date expressions against the time it is asked about ("Where am I travelling
    later this year?" asked in 2026 covers 2026). Absolute words (month names, years, ISO dates) stay
    keywords; the relative ones ("this year", "last week") are replaced by the resolved span. A question
    with no tense at all asks of the coming weekday: "anything on friday?", "any appointments on thursday?"
    (a statement with none reads back: "Fun day at the beach on Saturday!"; so do "pics from saturday?",
    "my spending in september?"); one in the present or future tense asks from the coming month ("where am
    i working from january?"; a statement's "the photos from march are on the drive" is of the last)."""
    found = resolve_dates(question, reference)
    if any(_AHEAD_IF.fullmatch(r.phrase) for r in found):
        tense = tense_of(question)
        ahead = {r.phrase: r for r in resolve_dates(question, reference, future=True)}
        found = [ahead.get(r.phrase, r) if _reads_ahead(r.phrase, tense) else r for r in found]
    # a holiday asked of without its year names no one day ("What does Tim love during Halloween?")
    ranges = [r for r in found if not _HOLIDAY.fullmatch(r.phrase.lower())]
    said = {w for r in ranges for w in re.findall(r"[a-z0-9]+", r.phrase.lower())}
    return QueryDates(event_range(ranges), frozenset(said & _DEICTIC), frozenset(said))


def query_span(query: str, at: datetime) -> tuple[int, int] | None:
    """The question's date expressions resolved against the time it asks about (``as_of``, else now), as
    epoch milliseconds (:func:`query_dates`)."""
    return query_dates(query, at).millis


def overlaps(event: Any, span: tuple[int, int]) -> bool:
    """Whether a memory's stored event range ``[start, end)`` (epoch ms) overlaps the question's span."""
    return bool(event) and event[0] is not None and event[0] < span[1] and (event[1] or event[0]) > span[0]


_ABSOLUTE = re.compile(r"\b\d{4}\b")  # a phrase that names its year needs no note ("May 2023", "2026-03-01")
_MONTH_NAMES = [m.capitalize() for m in MONTHS]


def date_notes(text: str, said: datetime, limit: int = 3) -> str:
    """What the relative date expressions of a text meant when it was said, for a reader without a calendar
    ("next weekend: Sat 2026-12-12 to Sun 2026-12-13", "last week: Mon 2026-11-23 to Sun 2026-11-29", "in
    May: May 2027"; said on Monday 2026-11-30): a model reading "[2026-11-30] Ana visits next weekend" must
    otherwise count the days itself. Resolved as formation resolves them (:func:`resolve_dates`) against
    ``said`` as stored (UTC: a message sent late at night at another offset can be a day apart from what
    formation read at that offset), at most ``limit``; a phrase that names its year is left as said. ""
    when there is none."""
    notes: dict[str, str] = {}
    for r in resolve_dates(text, said):
        if _ABSOLUTE.search(r.phrase) is None:
            notes.setdefault(r.phrase.lower(), f"{r.phrase}: {_span_words(r)}")
    return "; ".join(list(notes.values())[:limit])


def _span_words(r: DateRange) -> str:
    start, last = r.start.date(), (r.end - timedelta(days=1)).date()
    if r.granularity == "year":
        return str(start.year)
    if r.granularity == "month" and start.month == last.month:
        return f"{_MONTH_NAMES[start.month - 1]} {start.year}"

    def day(d: Any) -> str:
        return f"{WEEKDAYS[d.weekday()][:3].capitalize()} {d.isoformat()}"

    if start == last:
        return day(start)
    if (last - start).days < 7:
        return f"{day(start)} to {day(last)}"
    return f"{start.isoformat()} to {last.isoformat()}"
