"""Relative date expressions resolved to absolute ranges against the message's time (pure, no database).

"I went to a support group yesterday", said on 2023-05-08, is about 2023-05-07: formation stores that range
(``event_start``/``event_end``) in the memory's full-text key, so a question naming the date finds it.

Rules, not ``dateparser`` (points, not ranges; everyday words misread as dates: docs/formation.md): each
expression gives a half-open range ``[start, end)`` at the granularity the words state (a day, a week
starting Monday, a month, a season, a year); one not understood yields nothing rather than a guess. The
words and patterns read are :mod:`graphmem.model.date_patterns`'s; what a match means is this module's.
"""

from __future__ import annotations

import contextlib
from bisect import bisect_right, insort
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from graphmem.model.date_patterns import (
    FUTURE,
    HOLIDAYS,
    MONTH_ABBR,
    MONTHS,
    NUMBERS,
    PATTERNS,
    SEASONS,
    TRIGGER,
    TRIGGER_FOLDED,
    WEEKDAYS,
)
from graphmem.model.date_tense import SAID_BARE, SAID_ORDINAL, Stops, reading
from graphmem.model.validation import MAX_YEAR, MIN_YEAR

__all__ = ["HOLIDAYS", "MONTHS", "WEEKDAYS", "DateRange", "add_months", "event_range", "resolve_dates"]


def _may_hold_date(text: str) -> bool:
    """False only when no pattern of ``PATTERNS`` can match ``text``."""
    if text.isascii():
        return TRIGGER.search(text.lower()) is not None
    return TRIGGER_FOLDED.search(text) is not None


@dataclass(frozen=True)
class DateRange:
    """A resolved expression: the half-open range ``[start, end)`` and how wide it is."""

    phrase: str
    start: datetime
    end: datetime
    granularity: str  # day | week | month | season | year


def _count(word: str) -> tuple[int, int]:
    return (int(word), int(word)) if word.isdigit() else NUMBERS[word.lower()]


def _span(resolved: tuple[date, date, str], tz: Any) -> tuple[datetime, datetime, str] | None:
    """A range at midnights in ``tz``; None outside the accepted years in UTC ("1 January 0001" at +01:00)."""
    start, end = (datetime.combine(d, time(), tzinfo=tz) for d in resolved[:2])
    try:
        first, last = start.astimezone(UTC), (end - timedelta(microseconds=1)).astimezone(UTC)
    except OverflowError:
        return None
    return (start, end, resolved[2]) if first.year >= MIN_YEAR and last.year <= MAX_YEAR else None


def add_months(year: int, month: int, n: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + n
    return index // 12, index % 12 + 1


def _month(year: int, month: int) -> tuple[date, date]:
    ny, nm = add_months(year, month, 1)
    return date(year, month, 1), date(ny, nm, 1)


def _unit_range(unit: str, day: date) -> tuple[date, date]:
    """The calendar period of ``unit`` that contains ``day``."""
    if unit == "day":
        return day, day + timedelta(days=1)
    if unit == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=7)
    if unit == "month":
        return _month(day.year, day.month)
    return date(day.year, 1, 1), date(day.year + 1, 1, 1)


def _shift(unit: str, day: date, n: int) -> date:
    if unit == "day":
        return day + timedelta(days=n)
    if unit == "week":
        return day + timedelta(weeks=n)
    months = n if unit == "month" else 12 * n
    y, m = add_months(day.year, day.month, months)
    return date(y, m, min(day.day, 28))


def _part(unit: str, part: str, today: date, step: int) -> tuple[date, date]:
    """The end, start or middle quarter of the ``unit`` ``step`` periods from ``today``'s."""
    a, b = _unit_range(unit, _shift(unit, today, step))
    quarter = timedelta(days=(b - a).days // 4)
    start = b - quarter if part == "end" else a + quarter * 3 // 2 if part == "middle" else a
    return start, start + quarter


def _month_number(token: str) -> int:
    return MONTH_ABBR[token.lower()[:3]]


def _bare_month(month: int, mod: str, today: date, future: bool) -> tuple[date, date]:
    """A month named without a year: last/next/this, else the latest past one (or next one in a future
    sentence), counting the current month as both."""
    year = today.year
    if mod == "last" or (mod not in ("next", "this", "coming") and not future):
        year = today.year if month <= today.month else today.year - 1
        if mod == "last" and month == today.month:
            year -= 1
    elif mod in ("next", "coming") or future:
        year = today.year if month >= today.month else today.year + 1
        if mod == "next" and month == today.month:
            year += 1
    return _month(year, month)


def _season(first: int, mod: str, year: str | None, today: date, future: bool) -> date:
    """The first day of the season meant: last = the latest one over, next = the next to start,
    this = the one under way, else this year's, bare = the latest begun (the next unfinished one in a
    future sentence)."""
    if year:
        return date(int(year), first, 1)
    starts = [date(y, first, 1) for y in range(today.year - 2, today.year + 2)]
    ends = [date(*add_months(s.year, s.month, 3), 1) for s in starts]
    over = [s for s, e in zip(starts, ends, strict=True) if e <= today]
    begun = [s for s in starts if s <= today]
    unfinished = [s for s, e in zip(starts, ends, strict=True) if e > today]
    if mod in ("last", "past"):
        return over[-1]
    if mod in ("next", "coming"):
        return next(s for s in starts if s > today)
    if mod == "this":  # the one under way, else this year's
        under_way = [s for s in begun if s in unfinished]
        return under_way[-1] if under_way else date(today.year, first, 1)
    return unfinished[0] if future else begun[-1]


def _match(
    kind: str, g: tuple[str, ...], today: date, future: bool, ahead: bool = False
) -> tuple[date, date, str] | None:
    if kind == "iso":
        return (
            date(int(g[0]), int(g[1]), int(g[2])),
            date(int(g[0]), int(g[1]), int(g[2])) + timedelta(1),
            "day",
        )
    if kind in ("yesterday", "today", "tomorrow", "day_before", "day_after"):
        offset = {"yesterday": -1, "today": 0, "tomorrow": 1, "day_before": -2, "day_after": 2}[kind]
        day = today + timedelta(days=offset)
        return day, day + timedelta(days=1), "day"
    if kind in ("ago", "in_n"):
        lo, hi = _count(g[0])
        unit = g[1].lower()
        sign = -1 if kind == "ago" else 1
        a = _unit_range(unit, _shift(unit, today, sign * (hi if sign < 0 else lo)))[0]
        b = _unit_range(unit, _shift(unit, today, sign * (lo if sign < 0 else hi)))[1]
        return a, b, unit
    if kind in ("period", "weekend"):
        mod = g[0].lower()
        step = {"last": -1, "past": -1, "this": 0, "next": 1, "coming": 1}[mod]
        unit = "week" if kind == "weekend" else g[1].lower()
        a, b = _unit_range(unit, _shift(unit, today, step))
        if kind == "weekend":
            return a + timedelta(days=5), b, "day"
        return a, b, unit
    if kind == "part":  # "the end of the month": its last quarter (a week of a month, a season of a year)
        step = {"last": -1, "this": 0, "the": 0, "next": 1}[g[1].lower()]
        unit, part = g[2].lower(), g[0].lower()
        start, end = _part(unit, part, today, step)
        if g[1].lower() == "the" and future and end <= today:  # "at the start of the year" said in December
            start, end = _part(unit, part, today, 1)
        return start, end, {"week": "day", "month": "week"}.get(unit, "month")
    if kind in ("weekday", "weekday_bare"):
        mod = (g[0] or "").lower() if kind == "weekday" else ""  # "weekday_bare": no word before it
        target = _weekday(g[1]) if kind == "weekday" else _weekday(next(word for word in g if word))
        delta = target - today.weekday()
        if mod == "last" or (mod == "" and not future):
            delta = delta - 7 if delta >= 0 else delta
        elif mod in ("next", "coming") or future:
            delta = delta + 7 if delta <= 0 else delta
        day = today + timedelta(days=delta)
        return day, day + timedelta(days=1), "day"
    return _match_named(kind, g, today, future, ahead)


def _weekday(word: str) -> int:
    """Monday 0 … Sunday 6, for a weekday's name, whole or short ("thurs", "tue")."""
    return [w[:3] for w in WEEKDAYS].index(word[:3].lower())


_NEAR_MONTHS = 2  # a weekday with its day is the nearest such day of the months around (a plan, a report)


def _weekday_day(g: tuple[str, ...], today: date, ahead: bool | None) -> tuple[date, date, str] | None:
    """A weekday with its day of the month ("Tuesday the 10th", "thu 22nd", "Sat Oct 24", "wed 11/11": both
    ways of writing a date by numbers are tried): the nearest day of that number (and month) that falls on
    that weekday, since together they name one day, the way its clause's tense says (``ahead``; None: no
    tense read) where there is one each way ("We went out Saturday the 5th" said on 22 October is 5
    September, not 5 December), else the nearest either way. None when no such day falls in the two months
    either side of this one (a slip: "Tuesday the 11th" of a Wednesday; the other patterns read the words
    then), or for a bare number without "the", an ordinal ending or a month ("friday 11" is eleven
    o'clock)."""
    weekday, word, the, day_s, ordinal, month_s, month2_s, day2_s, num_a, num_b = g
    if num_a:
        readings = [(int(num_a), int(num_b)), (int(num_b), int(num_a))]  # month/day, day/month
    elif month2_s:
        readings = [(_month_number(month2_s), int(day2_s))]
    elif the or ordinal or month_s:
        readings = [(_month_number(month_s) if month_s else 0, int(day_s))]
    else:
        return None
    target, found = _weekday(weekday or word), []
    for step in range(-_NEAR_MONTHS, _NEAR_MONTHS + 1):
        year, month = add_months(today.year, today.month, step)
        for want_month, day_n in readings:
            if want_month in (0, month):
                with contextlib.suppress(ValueError):
                    if (day := date(year, month, day_n)).weekday() == target:
                        found.append(day)
    way = [d for d in found if (d >= today if ahead else d <= today)] if ahead is not None else []
    if not (found := way or found):
        return None
    day = min(found, key=lambda d: (abs((d - today).days), d < today))
    return day, day + timedelta(days=1), "day"


def _match_named(
    kind: str, g: tuple[str, ...], today: date, future: bool, ahead: bool = False
) -> tuple[date, date, str] | None:
    """The kinds that name a season, a month (with a day or a year) or a year. ``ahead``: the caller knows
    the statement is about the future (a plan), not only that a word of its sentence is ("I moved to Leeds
    on March 3rd, I'll unpack soon" names this year's March 3rd, whatever day it is said on)."""
    if kind == "season":
        start = _season(SEASONS[g[1].lower()], (g[0] or "").lower(), g[2], today, future)
        y, m = add_months(start.year, start.month, 3)
        return start, date(y, m, 1), "season"
    if kind in ("month_day", "day_month"):
        mon, day_s, year_s = (g[0], g[1], g[2]) if kind == "month_day" else (g[1], g[0], g[2])
        month, day_n = _month_number(mon), int(day_s)
        if not 1 <= day_n <= 31:
            return None
        year = int(year_s) if year_s else today.year
        try:
            day = date(year, month, day_n)
        except ValueError:
            return None
        if not year_s and not future and day > today:
            day = date(year - 1, month, min(day_n, 28) if month == 2 else day_n)
        elif not year_s and ahead and day < today:  # "on January 15th" planned in December: the coming one
            day = date(year + 1, month, min(day_n, 28) if month == 2 else day_n)
        return day, day + timedelta(days=1), "day"
    if kind == "ordinal_day":  # "on the 15th": this month's, or the nearest one that way
        return _ordinal_day(int(g[0]), today, 1 if ahead else 0 if future else -1)
    if kind == "month_year":
        a, b = _month(int(g[1]), _month_number(g[0]))
        return a, b, "month"
    if kind == "mod_month":
        a, b = _bare_month(_month_number(g[1]), g[0].lower(), today, future)
        return a, b, "month"
    if kind == "part_month":  # ahead, a part over is next year's ("the start of December" on 20 December)
        month = _month_number(g[1])
        first = date(int(g[2]), month, 1) if g[2] else _bare_month(month, "", today, future)[0]
        step = 12 if not g[2] and future and _part("month", g[0].lower(), first, 0)[1] <= today else 0
        start, end = _part("month", g[0].lower(), first, step)
        return start, end, "week"
    if kind == "year":
        return date(int(g[0]), 1, 1), date(int(g[0]) + 1, 1, 1), "year"
    if kind == "holiday":  # this year's, or the nearest one that way (as a day of the year, "month_day")
        month, day_n = HOLIDAYS[g[1].lower()]
        day = date(today.year, month, day_n) + timedelta(days=1 if g[0] else 0)
        if not future and day > today:
            day = day.replace(year=day.year - 1)
        elif ahead and day < today and g[0] and (today - day).days <= 14:
            day = today + timedelta(days=1)  # "after Christmas" said on 28 December: soon, not next year
        elif ahead and day < today:
            day = day.replace(year=day.year + 1)
        return day, day + timedelta(days=1), "day"
    return None  # pragma: no cover - every pattern kind is handled above


def _ordinal_day(day_n: int, today: date, way: int) -> tuple[date, date, str] | None:
    """The day ``day_n`` of this month, or of the next (``way`` 1: a plan) or the previous month (``way``
    -1) when this month's lies the other way of ``today``; ``way`` 0 (a sentence with a future word, as
    "I moved on the 3rd, I'll unpack soon"): this month's. None for a day no month has."""
    if not 1 <= day_n <= 31:
        return None
    year, month = today.year, today.month
    for _ in range(3 if way else 1):  # a 31st may skip a month
        with contextlib.suppress(ValueError):
            day = date(year, month, day_n)
            if not way or ((day >= today) if way > 0 else (day <= today)):
                return day, day + timedelta(days=1), "day"
        year, month = add_months(year, month, way)
    return None


def resolve_dates(
    text: str, reference: datetime, *, future: bool = False, by_tense: bool = True
) -> list[DateRange]:
    """Every date expression of ``text`` resolved against ``reference`` (the message's time), in text order.

    Ranges are half-open and in ``reference``'s time zone (UTC when it is naive). Overlapping matches keep
    the first pattern that matched (more specific patterns come first). A sentence that speaks of the future
    ("will", "going to", "next"; or ``future``: the caller knows it does) resolves what it does not read by
    tense forwards, otherwise backwards. A bare weekday ("on Saturday"), a day of the month, a month after
    "in"/"until"/"by" and a day of the year without its year go by the tense of their own clause, else their
    sentence (:mod:`graphmem.model.date_tense`): "Leo has a match on Saturday" is the coming one, "Leo scored
    on Saturday" the last; a day of the year with no tense to read is the nearest one. ``by_tense`` False: by
    the future words only (:mod:`graphmem.model.planned` reads a fact's clause so). A future word elsewhere
    in the sentence keeps this year's and this month's ("I moved to Leeds on March 3rd, I'll unpack soon").
    """
    if not _may_hold_date(text):
        return []
    return _resolve(text, reference, future, by_tense)


def _resolve(text: str, reference: datetime, future: bool = False, by_tense: bool = True) -> list[DateRange]:
    """:func:`resolve_dates` without the first test: every pattern is searched."""
    tz = reference.tzinfo or UTC
    today = reference.astimezone(tz).date() if reference.tzinfo else reference.date()
    ahead, future = future, future or bool(FUTURE.search(text))
    taken: list[tuple[int, int]] = []  # the spans read, in text order (none overlaps another)
    found: list[tuple[int, DateRange]] = []
    stops = Stops(text)
    for kind, pattern in PATTERNS:
        for m in pattern.finditer(text):
            if _overlaps(taken, m.start(), m.end()):
                continue
            later, soon, tensed = future, ahead, future  # tensed: a way read (not the default, backwards)
            lead = (
                m.group(0).split(" ", 1)[0].lower()
            )  # "the call is Monday", "it was Saturday", "for Tuesday"
            if not by_tense and lead in {"weekday": SAID_BARE, "ordinal_day": SAID_ORDINAL}.get(kind, ()):
                continue  # read by tense only: a fact's clause keeps the dates it read before rounds 62-63
            if by_tense and not ahead and (read := reading(kind, m, lead, stops, today)) is not None:
                later, soon, tensed = *read, True
            try:
                resolved = (
                    _weekday_day(m.groups(), today, later if tensed else None)
                    if kind == "weekday_day"
                    else _match(kind, m.groups(), today, later, soon)
                )
            except (ValueError, OverflowError, KeyError):
                resolved = None
            if resolved is None:
                continue
            insort(taken, (m.start(), m.end()))  # out of the years, no part of the phrase is read as another
            if (span := _span(resolved, tz)) is not None:
                found.append((m.start(), DateRange(m.group(0), *span)))
    return [r for _, r in sorted(found, key=lambda x: x[0])]


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``[start, end)`` overlaps a span of ``taken`` (sorted, disjoint: their ends are sorted too).

    Only the span before ``start``'s place and the one from it on can: a bisection, not a scan (a text
    of ~2,000 dates was quadratic in them)."""
    i = bisect_right(taken, (start, end))
    return (i > 0 and taken[i - 1][1] > start) or (i < len(taken) and taken[i][0] < end)


def event_range(ranges: list[DateRange]) -> tuple[datetime, datetime] | None:
    """The span that covers every resolved range (None when there are none)."""
    return (min(r.start for r in ranges), max(r.end for r in ranges)) if ranges else None
