"""Which way a date said without its year or month goes, by the tense of its clause (pure): "Leo has a match
on Saturday" is the coming Saturday, "Leo scored on Saturday" the last; "my bday is the 30th", "the recital is
Sat Oct 24" the coming ones, "we were in Spain in May" the last. :func:`graphmem.model.dates.resolve_dates`
asks :func:`reading` for each expression it resolves; docs/formation.md says what each reads and misses."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from datetime import date

from graphmem.model.date_patterns import (
    ARRANGED,
    CLAUSE_END,
    CLOCK,
    FUTURE,
    MONTH_ABBR,
    OPENS_PAST,
    OPENS_PROGRESSIVE,
    ORDINAL_LEADS,
    PAST_TENSE,
    PRESENT_TENSE,
    SENTENCE_END,
)

__all__ = ["SAID_BARE", "SAID_ORDINAL", "Stops", "reading", "tense_of"]

COPULA = {"is": True, "are": True, "was": False, "were": False}
SAID_BARE = frozenset({*COPULA, "for"})
"""A weekday said after a form of "be" goes its way: "the kickoff call is Monday at 2", "it was Saturday"."""
MONTH_BY_TENSE = frozenset({"in", "until", "till", "by"})
"""A month after these goes by its clause's tense ("postponed until October": ahead; "I lived there until
October": the last), else to the nearest one ("jen's leaving for a travel gig in december" said in October);
after "last", "next", "since", "from" … by its word, as before ("the photos from march" are of the last)."""
SAID_ORDINAL = frozenset(ORDINAL_LEADS)
"""The words before a day of the month that only a tense reading takes (date_patterns.ORDINAL_LEADS): a
fact's clause read by the future words only skips them."""
_BARE = frozenset({"ordinal_day", "weekday_bare", "weekday_day"})  # said without a word that gives a way
_HALF_YEAR = 183  # days: a day of the year said with no tense is the nearest one, ahead or back


class Stops:
    """Where the clauses and the sentences of a text end (found at its first date read by tense), and the
    tense each one read says (each is read once: a text of many weekdays and no stop stays linear)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict[str, tuple[list[int], list[int]]] = {}
        self.read: dict[tuple[int, int], bool | None] = {}
        self._timed: dict[tuple[int, int], bool] = {}

    def around(self, name: str, start: int, end: int) -> tuple[int, int]:
        """The span of the clause (``name`` "clause") or sentence of the text that holds ``[start, end)``."""
        if name not in self._found:
            spans = [m.span() for m in (CLAUSE_END if name == "clause" else SENTENCE_END).finditer(self.text)]
            self._found[name] = ([s for s, _ in spans], [e for _, e in spans])
        starts, ends = self._found[name]
        i, j = bisect_right(ends, start), bisect_left(starts, end)
        return ends[i - 1] if i else 0, starts[j] if j < len(starts) else len(self.text)

    def timed(self, start: int, end: int) -> bool:
        """Whether the clause of the date at ``[start, end)`` names a clock time ("at 8:15", "10am"); each
        clause is searched once."""
        span = self.around("clause", start, end)
        if span not in self._timed:
            self._timed[span] = CLOCK.search(self.text, *span) is not None
        return self._timed[span]

    def tense_ahead(self, start: int, end: int) -> bool | None:
        """Whether the date at ``[start, end)`` is the coming one, by the tense of its clause, else of its
        sentence: a future word ("will", "next") says so, then a past form ("was", "had", "did", "we
        finished", "ran") says not, then a present one ("is", "I'm", "has", "I've got", "can", "leaves") says
        so. None when neither says anything. The clause, not the text: "I ran 10k on Saturday. Next week I'll
        try for 50 minutes" and "We had a barbecue on Saturday and it is still the talk of the street" are
        about last Saturday, "The party is on Saturday and I bought a dress" about the coming one."""
        for name in ("clause", "sentence"):
            span = self.around(name, start, end)
            if span not in self.read:
                self.read[span] = tense_of(self.text[span[0] : span[1]])
            if self.read[span] is not None:
                return self.read[span]
        return None


def tense_of(said: str) -> bool | None:
    """True for a future word or a past verb that arranges what comes (booked, scheduled); else False for a
    past form anywhere in ``said`` or opening it; else True for a present form or an opening verb in -ing of
    what one does next; None for none
    ("The party is on Saturday, I already bought a dress" reads as past: a known miss, as is reported
    speech)."""
    if FUTURE.search(said) or ARRANGED.search(said):
        return True
    if PAST_TENSE.search(said) or OPENS_PAST.match(said):
        return False
    return True if PRESENT_TENSE.search(said) or OPENS_PROGRESSIVE.match(said) else None


def reading(kind: str, m: re.Match[str], lead: str, stops: Stops, today: date) -> tuple[bool, bool] | None:
    """For an expression read by its clause's tense, ``(later, soon)``: whether it goes forwards, and whether
    to the coming one even where this month's or this year's is over (a day of the month or of the year);
    None for one that is not read so. A bare weekday, a day of the month, a month after "in", "until", "by",
    a day of the year without its year ("Sat Oct 24", "3 Nov"); a form of "be" right before says it ("the
    call is Monday"); a day aimed at with "for" or "to" lies ahead ("a table for the 22nd"); a day of the
    year with no tense to read is the nearest one ("Mediation: Monday 19 October 17h" said on 9 October)."""
    year_day = kind in ("month_day", "day_month") and m.group(3) is None
    bare = kind in _BARE or (kind == "weekday" and m.group(1) is None) or year_day
    if not bare and not (kind == "mod_month" and lead in MONTH_BY_TENSE):
        return None
    tense = COPULA[lead] if lead in COPULA and not year_day else stops.tense_ahead(m.start(), m.end())
    if tense is None and kind == "ordinal_day" and lead in ("to", "for"):
        tense = True  # a day aimed at: "Mark your calendar for the 22nd", "moved it to the 3rd"
    if tense is None and year_day:
        mon, day_s = m.group(1, 2) if kind == "month_day" else m.group(2, 1)
        tense = _nearest_ahead(mon, day_s, today)
    if tense is None and kind == "mod_month":
        tense = _nearest_ahead(m.group(2), None, today)
    if tense is None and stops.timed(m.start(), m.end()):
        tense = True  # a note of what comes, with its time: "Mammogram Tuesday at 8:15", "on the 16th 9am"
    if tense is None:
        return None
    return tense, tense and kind in ("ordinal_day", "month_day", "day_month")


def _nearest_ahead(month: str, day_s: str | None, today: date) -> bool | None:
    """Whether the nearest day of the year (``day_s`` of ``month``) or, without a day, the nearest month lies
    ahead of ``today``: the one within half a year ahead, else the one back. None for this month (both
    ways) and for no such day ("Feb 30", a month name the patterns' case folding matched: "ſept")."""
    number = MONTH_ABBR.get(month.lower()[:3])
    if number is None or (day_s is None and number == today.month):
        return None
    try:
        this = date(today.year, number, int(day_s) if day_s else 1)
    except ValueError:
        return None
    gap = (this - today).days
    return 0 <= gap <= _HALF_YEAR or gap < -_HALF_YEAR
