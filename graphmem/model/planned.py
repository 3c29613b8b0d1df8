"""When a stated fact starts (pure): "I'm moving to Manchester next month" is a plan, valid from the first of
next month, not from the moment it was said.

A fact a turn states holds from when it was said. It is a *plan* when the clause stating it names a date that
begins after the day it was said ("next month", "tomorrow", "on Monday" in a sentence about the future, "in
two weeks"): then it holds from that date's start, and :mod:`graphmem.model.facts` records when it was
planned (``planned_at``), so a later statement made before that date replaces the plan instead of being kept
as a contradiction. A date that bounds the statement ("until next month", "by Friday", "before June") does
not start it, and a date in another clause of the sentence ("I moved to Leeds, and next week I start at the
BBC") is not the fact's.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from itertools import islice

from graphmem.model.dates import resolve_dates
from graphmem.model.pattern_pieces import WEEKDAY

__all__ = [
    "SUPPOSING_WORDS",
    "clause",
    "day_said_next",
    "ended_by",
    "fact_start",
    "happened_at",
    "later_unnamed",
    "leading",
    "moved_start",
    "phrase_end",
    "supposed",
]

# where a clause ends: a sentence stop, a semicolon, a line, or a coordinating conjunction between clauses
# (a run of spaces is entered at its first: searching from each of its spaces would take quadratic time)
_CLAUSE_END = re.compile(
    r"[.!?;\n]|(?:,|(?<![\s,]))\s+(?:and|but|so|because|while|although|though|whereas)\s+", re.I
)
# where a plan's own clause starts after another's dates: "I'll be there from the 20th to the 28th, then
# straight after, on January 4th, I'm relocating to Singapore" (fact_start)
_THEN = re.compile(r",\s+then\s+", re.I)
# a date read as a bound of the statement, not its start
_BOUND = re.compile(r"\b(?:until|till|til|before|by|since|through|up to)\s*$", re.I)


def clause(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """The clause of ``text`` holding ``span``: from the last clause end before it to the first after it
    (a conjunction inside the span itself, as in "I moved to Berlin and started at Zalando", stays)."""
    first = span[0]  # a match may begin with the stop before its first word ("! Always ...")
    while first < span[1] and not text[first].isalnum():
        first += 1
    start = 0
    for m in _CLAUSE_END.finditer(text, 0, first):
        start = m.end()
    end_match = _CLAUSE_END.search(text, span[1])
    return start, end_match.start() if end_match else len(text)


def phrase_end(text: str, span: tuple[int, int]) -> int:
    """Where the phrase stating ``span`` ends: the next comma after it, else its clause's end."""
    end = clause(text, span)[1]
    comma = text.find(",", span[1], end)
    return comma if comma >= 0 else end


def fact_start(
    text: str,
    span: tuple[int, int] | None,
    said: datetime,
    *,
    future: bool = False,
    ahead: bool = False,
    replans: bool = False,
) -> datetime | None:
    """The start of the change the clause at ``span`` of ``text`` plans, or None when it plans none: the
    earliest date the clause names that begins after the day ``said`` falls on and is not a bound of it.
    ``future``: the fact was stated in the future tense ("I'm starting my new job on Monday"), so a bare
    weekday or month is the coming one, as in a sentence with "will" or "next". ``ahead``: stated in the
    progressive ("I'm moving to York in March"), so the same holds for its own phrase, up to the next comma,
    and not for the rest of the clause ("I'm moving to Leeds, I got the offer in May" names a past May).
    ``replans``: a plan's value changed, whose own day only follows it (:func:`replanned_start`)."""
    if span is None:
        return None
    if replans:
        return replanned_start(text, span, said)
    start, end = clause(text, span)
    start = max([start] + [m.end() for m in _THEN.finditer(text, start, span[0])])
    own = text[start:end]
    found = resolve_dates(own, said, future=future, by_tense=False)
    if ahead and not future:
        found += resolve_dates(text[start : phrase_end(text, span)], said, future=True)
    starts = [
        r.start for r in found if r.start > said and not _BOUND.search(own[: max(0, own.find(r.phrase))])
    ]
    if starts:
        return min(starts)
    return day_said_next(text, span, said) if future or ahead else None


# what says a sentence names the day of a plan said just before it: "Moving day is December 19th", "First
# day is 8 February", "Completion is 22 January, so that's when we move", "I fly out on 3 April"
_DAY_OF_IT = re.compile(
    r"\b(?:moving day|move day|move-in|moving in|move in|moving on|first day|start date|starting date|"
    r"completion|closing date|possession|"
    r"we move|I move|I start|we fly|I fly|fly out|flying out)\b",
    re.I,
)
_SENTENCE = re.compile(r"[^.!?\n]+")
_STOP = re.compile(r"[.!?\n]")


def day_said_next(text: str, span: tuple[int, int], said: datetime) -> datetime | None:
    """The start of a plan whose own clause names no date, said in the rest of its sentence or one of the two
    sentences after it that name the day of it (:data:`_DAY_OF_IT`): "I accepted an offer from X and I start
    January 4th", "We closed on a house in Evanston! Moving day is December 19th", "I'm moving to Valencia!
    I fly out on 3 April"; the earliest date after the day ``said`` falls on. A date in a sentence about
    something else is not the plan's ("I'm moving to Leeds! My birthday is on 3 April")."""
    stop = _STOP.search(text, span[1])
    rest = _SENTENCE.match(text, span[1])  # the rest of its own sentence: "... and I start January 4th"
    after = islice(_SENTENCE.finditer(text, stop.end()), 2) if stop else ()
    for m in [*([rest] if rest else []), *after]:
        if (cue := _DAY_OF_IT.search(m.group())) is not None:
            # the cue's own clause ("My start date is February 2nd, so I'll give notice next week"), or where
            # it names none, its sentence ("Completion is 22 January, so that's when we move")
            start, end = clause(m.group(), cue.span())
            for said_in in (m.group()[start:end], m.group()):
                starts = [r.start for r in resolve_dates(said_in, said, future=True) if r.start > said]
                if starts:
                    return min(starts)
    return None


# the new date of a plan put off, after its verb: "pushed back to June", "not moving until March", "moved till
# Monday", "not before June", "to the 20th" (read as "in June", "on Monday", "on the 20th", in the future)
_MOVED_TO = re.compile(r"\b(?:to|until|till|til|before)\s+(?=\S)", re.I)
_ON_DAY = re.compile(rf"(?:{WEEKDAY}|the \d{{1,2}}(?:st|nd|rd|th))\b", re.I)
# a date ruled out after the new one: "(the move is 21 January), not the 12th", "(to June) and not July"
_RULED_OUT = re.compile(r",?\s+(?:and |but )?not\b(?! (?:until|till|before)\b)", re.I)


def moved_start(text: str, span: tuple[int, int], said: datetime) -> datetime | None:
    """The new start of a plan put off (:data:`graphmem.model.calloff_patterns.PUT_OFF`): the last date after
    the day ``said`` falls on that the clause names from the end of ``span`` on, a date after "to", "until",
    "till" or "before" included, up to a "not" (a date ruled out: "..., not the 12th"); None when it names
    none ("the move has been postponed")."""
    end = clause(text, span)[1]
    now = _NOW_ITS.match(text, end)  # "The Doha move got delayed again. Now it's March 15."
    tail = text[span[1] : clause(text, (now.end(), now.end()))[1] if now else end]
    tail = _RULED_OUT.split(tail, maxsplit=1)[0]
    tail = _MOVED_TO.sub(lambda m: "on " if _ON_DAY.match(tail, m.end()) else "in ", tail)
    starts = [r.start for r in resolve_dates(tail, said, future=True) if r.start > said]
    return starts[-1] if starts else None  # the last said: "pushed back to June, then to July"


# the new date said in the next sentence or clause: "... delayed again. Now it's March 15", "... got delayed,
# now it's March 15", "... postponed. The new date is 2 April."
_NOW_ITS = re.compile(r"[.!;,]\s+(?:(?:so )?now it's|it's now|(?:the )?new date is)\s", re.I)


# a plan's new value given with its own day after it: "going to Lloyds instead, start 11 Jan", "..., moving on
# the 9th" (not "..., I'll tell the landlord next week")
_NEW_DAY = re.compile(r",?\s+(?:(?:and |so )?(?:I |we )?(?:start(?:s|ing)?|mov(?:e|ing)|from|on)\b)", re.I)


def replanned_start(text: str, span: tuple[int, int], said: datetime) -> datetime | None:
    """The day of a plan whose value is changed (:data:`graphmem.model.plan_patterns.REPLANNED`) said right
    after the change, led by a start or a move; None when none is said (the old plan's day stands)."""
    lead = _NEW_DAY.match(text, span[1])
    if lead is None:
        return None
    starts = [r.start for r in resolve_dates(text[lead.start() : clause(text, span)[1]], said, future=True)]
    later = [d for d in starts if d > said]
    return min(later) if later else None


# a time ahead that no date rule reads ("after Christmas", "soon"; not "after all")
_LATER = re.compile(
    r"\b(?:after(?! all\b)|(?:at|by|towards?|around) the (?:end|start|beginning|middle) of|later|soon|"
    r"eventually|one day|some ?day|at some point|in the new year)\b",
    re.I,
)


def later_unnamed(text: str, span: tuple[int, int]) -> bool:
    """Whether the clause at ``span`` says its change comes later without a date the rules read ("I'm moving
    to Cardiff after Christmas"; read up to the next comma): a change in the progressive is then a plan
    without a date, not a fact yet, rather than one that holds from when it was said."""
    # its own phrase: "..., I got the job after a long search" is not
    return _LATER.search(text, span[1], phrase_end(text, span)) is not None


# what leads a statement that supposes or asks rather than states, right before its subject: "if I moved to
# Berlin", "once I move", "until I move", "Should I move to Berlin?" (not "After that I moved to Leeds", "When
# I retired I moved to Spain", "Did I tell you I moved to Lisbon?"; "In May I moved": no modal "may")
SUPPOSING_WORDS = (
    r"if|unless|whether|in case|imagine|what if|suppose|supposing|should|shall|could|would|can|will|do|does|"
    r"did|must"
)
"""The words that suppose or ask what follows them (graphmem.retrieval.signals reads changes with these only:
a change told after a time word is stated)."""
_TIME_WORDS = r"once|when|whenever|until|till|before|after|as soon as"


def leading(words: str) -> re.Pattern[str]:
    """A pattern of one of ``words`` right before a statement's subject (searched in the text before it)."""
    return re.compile(rf"\b(?:{words})\s+(?:(?:ever|just|only|really|\w+ly)\s+)?$", re.I)


_SUPPOSING = leading(f"{_TIME_WORDS}|{SUPPOSING_WORDS}")


# a statement reported as said before, which a correction follows: "I said I live in Lyon but it's actually
# Villeurbanne" (the correction is read by graphmem.model.correction_patterns); not one said again ("As I said
# I live in Leeds", "like I said I work at Arup")
_REPORTED = re.compile(r"(?<![Aa]s )(?<![Ll]ike )\bI (?:said|wrote|typed)(?: that)?\s+$")


# the verb of a question put before its subject: "Are we moving to Denver?", "Am I still living in Leeds?"
# (only in a sentence that ends with a question mark: "The good news is I got the job"; and not one the
# speaker answers: "Are we moving to Denver? Yes!")
_INVERTED = leading("are|am|is|was|were|have|has|had")
_ANSWERED = re.compile(r"\?+\s*(?i:yes|yep|yeah|yup|indeed|we are|I am)(?=\s*[!.]|\s*$|\s+(?:we|I)\b)")


def supposed(text: str, span: tuple[int, int]) -> bool:
    """Whether the statement at ``span`` is asked, supposed or reported, not stated: a subordinating or asking
    word leads it, right before its subject ("If I moved to Berlin, ...", "Nine more days until I move to
    Manchester!", "When I moved to London ten years ago, ...", "Should I move to Berlin?", "Are we moving to
    Denver?"), or "I said" ("I said I live in Lyon but it's actually Villeurbanne")."""
    before = text[max(0, span[0] - 40) : span[0]]
    if _SUPPOSING.search(before) is not None or _REPORTED.search(before) is not None:
        return True
    stop = _STOP.search(text, span[1])
    return (
        stop is not None
        and stop.group() == "?"
        and _INVERTED.search(before) is not None
        and _ANSWERED.match(text, stop.start()) is None
    )


def ended_by(text: str, span: tuple[int, int], said: datetime) -> datetime:
    """When an ending at ``span`` had happened by: the end of the first date its phrase (to the next comma)
    names that lies wholly before the day ``said`` falls on ("I was fired in 2015": by 1 January 2016, so it
    cannot end a job that began later), else ``said``."""
    if _AHEAD.search(text, span[0], span[1]):  # "Last day at Takealot is the 31st": ends then
        day = re.sub(r"^\s*(?:on\s+)?", "on ", text[span[1] : phrase_end(text, span)])  # "on the 31st"
        ahead = [r.end for r in resolve_dates(day, said, future=True)]
        return next((end for end in ahead if end > said), said)
    for r in resolve_dates(text[clause(text, span)[0] : phrase_end(text, span)], said, by_tense=False):
        if r.end <= said:
            return r.end
    return said


_AHEAD = re.compile(r"\b(?:is|will be)$")  # an ending's day said ahead (ended_by)


# how long ago a change told with its date is history rather than news: a month, the span of "last month"
HISTORY = timedelta(days=31)


def happened_at(text: str, span: tuple[int, int], said: datetime) -> datetime | None:
    """When a change told as history at ``span`` happened: the start of the date its phrase names that ended
    a month or more before ``said`` (:data:`HISTORY`), the first after the value ("I moved to Paris in 2015",
    "... and then to Berlin in 2019": each its own), else the last before it in its clause ("In 2019 I moved
    to Leeds"; not "I moved to the UK in 2019 and now live in Leeds"); not a bound ("until 2015"). None when
    it names none, or only a recent date ("I moved to York last week" is news: it holds from when it was
    told, as the latest word on where the user lives)."""
    start, end = clause(text, (span[1] - 1, span[1]))[0], phrase_end(text, span)  # the value's own clause
    day = said - HISTORY
    after = [r for r in resolve_dates(text[span[1] : end], said, by_tense=False) if r.end <= day]
    before = [r for r in resolve_dates(text[start : span[1]], said, by_tense=False) if r.end <= day]
    for found, lead in ((after[:1], text[span[1] : end]), (before[-1:], text[start : span[1]])):
        for r in found:
            if not _BOUND.search(lead[: max(0, lead.find(r.phrase))]):
                return r.start
    return None
