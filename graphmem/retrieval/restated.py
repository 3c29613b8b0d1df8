"""A value said again (pure): for a question that asks what holds now ("who's my team lead now?", "when is
swimming these days?"), of the best ``k`` statements, a later one of the same speaker that gives a new value
of the kind the question asks for (a person for "who", a time for "when", an amount for "how much") of the
thing the question names outdates the earlier ones that name it too.

People restate what changed without a word that says so ("swim lessons thursdays 6pm for the rest of term"
after "swim lessons are tuesdays at 5pm", "first physio session with Tom at the new clinic"), so no list of
change words (graphmem.retrieval.change_patterns.CHANGE) covers them. What they share is structure: the later
statement names the thing as the earlier one does (:func:`same_thing`), and gives a value of the kind asked
that the earlier does not hold, near a word of the thing (:func:`restated_later`). The question asks of
the present (graphmem.retrieval.changes: not the past) and for a value with a shape of its own (a person, a
time, an amount; not "what" or "where", whose values have none, so that a later statement that only names
the thing cannot outdate the answer). Round 64 also asked for "now" in so many words (:data:`NOW`); round
66 dropped that: what was said once is not restated, and what was restated is asked without "now" as often
("what night is darts", "which day do i do carpool"): the blind sets gained, none lost. Without "now", a
later time told in the past tense is one occasion, not the time as it stands ("missed yoga on wednesday"),
and a thing named as someone else's is theirs ("my mum's birthday" for "when is my birthday"): neither
restates. Everything else is chatter that names the thing and a value of another ("noah practiced piano for
an hour on sunday", "the landlord sent a plumber, a guy named Pete"): two reviews' probes, measured in round
64 (docs/temporal.md, "A value said again")."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from graphmem.model.date_patterns import MONTHS, WEEKDAYS_SHORT
from graphmem.model.date_tense import tense_of
from graphmem.model.people import NOT_A_NAME, is_first_name
from graphmem.model.scoring import asks_only
from graphmem.retrieval.bm25 import stem
from graphmem.retrieval.terms import STOP_WORDS, query_terms

__all__ = [
    "NOW",
    "WHEN",
    "Asked",
    "asked_of",
    "content_words",
    "earlier",
    "names_the_head",
    "people_named",
    "restated_later",
    "same_thing",
]

NOW = re.compile(
    r"\b(?:now|rn|atm|these days|currently|at the moment|at present|still|any ?more|nowadays|lately|"
    r"current)\b",
    re.IGNORECASE,
)
"""The words that ask what holds at present ("now", "rn", "these days"): no word of the thing asked."""

WHEN = (
    r"(?:(?:every |the )?(?:mon|tues?|wed(?:nes)?|thurs?|fri|sat(?:ur)?|sun)(?:day)?s?\b|"
    r"the \d{1,2}(?:st|nd|rd|th)\b|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|(?:next|this) (?:week|month)\b|"
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|(?:morning|afternoon|evening)s\b)"
)
"""A time a change moves something to (graphmem.retrieval.change_patterns.CHANGE): a weekday (abbreviated,
plural), the Nth, a clock time, a month, "next week", mornings."""

_LEAD_IN = r"^\W*(?:[\w']+\W+){0,3}?"  # "hey", "ok so", "quick q:" before the question word
_WHAT_TIME = r"\b(?:what|which) (?:time|date|days?|evenings?|mornings?|nights?|weekday)\b|\bhow often\b"
_ASKS_WHEN = re.compile(rf"{_LEAD_IN}when\b|{_WHAT_TIME}", re.IGNORECASE)
_ASKS_WHO = re.compile(rf"{_LEAD_IN}(?:who|whom|whose)\b|\bwho(?:'s| is| are)\b", re.IGNORECASE)
_ASKING = re.compile(rf"\bhow (?:much|many)\b|{_WHAT_TIME}", re.IGNORECASE)
_ASKS_COUNT = re.compile(r"\bhow many\b", re.IGNORECASE)
_ASKS_MONEY = re.compile(
    r"\bhow much\b|\b(?:price|rate|cost|costs|fee|fees|rent|salary|charge)\b", re.IGNORECASE
)
# a time as a schedule gives one: a weekday (not "sat" or "sun" the words: "I sat by the pool"), a day of the
# month, a month beside a day, a clock time (minutes below 60: not "12.99")
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_TIME = re.compile(
    r"\b(?:mon|tues?|wed(?:nes)?|thurs?|fri)(?:day)?s?\b|\b(?:satur|sun)days?\b|(?-i:\b(?:Sat|Sun)\b)"
    r"|\b(?:sat|sun)(?=\s*(?:[/&,+-]|and\b|n\b|mornings?\b|nights?\b|\d|the \d))"
    rf"|\bthe {_DAY}\b|\b{_MONTH} {_DAY}\b|\b{_DAY} {_MONTH}(?!\w)"
    r"|\b\d{1,2}(?:[:.][0-5]\d)?\s*(?:am|pm|h)\b|\b\d{1,2}[:.][0-5]\d\b|\b(?:noon|midnight)\b",
    re.IGNORECASE,
)
# money: a currency sign, a number with a rate or a currency word, or a number of two digits or more that
# is no day, ordinal, time or count of days ("rent is 1450"; not "paid the rent 2 days late", "on the 1st")
_MONEY = re.compile(
    r"[$£€¥]\s?\d|\d\s?(?:[$£€¥]|/\s?(?:h|hr|hour|mo|month|wk|week|night)\b|k\b|(?:dollars|bucks|pounds|quid|"
    r"euros|rupees|yen)\b|(?:an?|per) (?:hour|month|week|year|night|session|class|lesson)\b)"
    r"|\b\d{2,}(?:[.,]\d+)*\b(?!\s*(?:st|nd|rd|th|days?|weeks?|months?|years?|mins?|minutes?|hours?|hrs?|am|pm)"
    r"\b)",
    re.IGNORECASE,
)
_COUNT = re.compile(
    r"\b\d+\b|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|twenty|thirty)\b",
    re.IGNORECASE,
)
# a person named: a title and a name ("mr pham", "Dr. Okafor"), a name after named/called or a title of
# sport ("a guy named tomasz", "coach Pham"), a capitalised word inside a sentence, a capitalised given name
# opening one ("Tomasz starts monday")
_TITLED = re.compile(r"\b(?:mr|mrs|ms|mx|dr|prof)\.?\s+([a-z][\w'-]+)", re.IGNORECASE)
_AFTER_NAMING = re.compile(r"\b(?:named|called|coach|miss)\s+([A-Za-z][\w'-]+)", re.IGNORECASE)
_CAPITALISED = re.compile(r"(?<![.!?\n]\s)(?<![.!?\n])(?<!^)(?<!\s\s)\b(?!I\b|I')[A-Z][a-z][\w'-]*")
_OPENING = re.compile(r"(?:^|(?<=[.!?\n]\s)|(?<=\n))[A-Z][a-z][\w'-]*")
_SHORT_DATES = frozenset({*(m[:3] for m in MONTHS), "sept", *WEEKDAYS_SHORT})
"""Months and weekdays written short ("Nov 13", "Tues"), which graphmem.model.people.NOT_A_NAME lacks."""
_WORD = re.compile(r"[A-Za-z][\w'-]*")


@dataclass(frozen=True)
class Asked:
    """What a question asks about, as :func:`content_words` writes words: ``thing``, its content words less
    the words that ask (:data:`NOW`, "how much", "what time", "which days") and less ``whose``, the people
    whose the thing is (its possessors and capitalised given names: "coach" and "soccer", and "jaylen", of
    "who's jaylen's soccer coach now?"; every statement about Jaylen names him)."""

    thing: frozenset[str]
    whose: frozenset[str]
    head: str | None = None
    """The thing's last word as the question writes it, its head noun mostly ("lesson" of "piano lessons",
    "lead" of "team lead")."""


@functools.lru_cache(maxsize=1024)
def asked_of(query: str) -> Asked:
    """:class:`Asked` of a question (cached: every candidate of a recall asks)."""
    query = query.replace("\u2019", "'")
    whose: set[str] = set()
    for m in _WORD.finditer(query):
        word = m.group()
        if word.lower().endswith("'s") and word.lower()[:-2] not in STOP_WORDS:  # "who's" owns nothing
            whose.add(stem(word.lower()[:-2]))
        elif m.start() > 0 and word.istitle() and is_first_name(word):  # "job", "will": words too
            whose.add(stem(word.lower()))
    asking = _ASKING.sub(" ", NOW.sub(" ", query))  # "these days", "how much": no word of the thing
    thing = [w for w in _ordered_words(asking) if w not in whose]
    return Asked(frozenset(thing), frozenset(whose), thing[-1] if thing else None)


def _ordered_words(text: str) -> list[str]:
    """:func:`content_words` in the order the text says them."""
    found = (term.split("'")[0] for term in query_terms(text))  # "i'm" -> "i"
    return [stem(w) for w in found if len(w) >= 3 and w not in STOP_WORDS]


@functools.lru_cache(maxsize=65536)
def content_words(text: str) -> frozenset[str]:
    """Lower-case words of three letters or more that are not function words, as the full-text index stems
    them: "moving on the 14th" and "the move date is pushed to the 21st" share "move"."""
    return frozenset(_ordered_words(text))


def same_thing(asked: Asked, old: frozenset[str] | set[str], new: frozenset[str] | set[str]) -> bool:
    """Whether a later statement's words (:func:`content_words`) name the thing asked as the earlier one
    does: every word of it the earlier holds ("piano lessons are tuesdays at 4pm" is not restated by "noah
    practiced piano for an hour"), and whose it is where the earlier says ("leo's swimming is fridays" is
    not by "mira's swimming moved to thursdays" for "when is leo's swimming now?")."""
    held = old & asked.thing
    return bool(held) and held <= new and _whose_kept(asked, old, new)


def names_the_head(asked: Asked, old: frozenset[str] | set[str], new: frozenset[str] | set[str]) -> bool:
    """:func:`same_thing`, of the thing's head only where the earlier holds it: a change statement says what
    changed in fewer words ("new lead is called hana" of "my team lead kieran"; not "the piano recital got
    moved to the 21st" of "piano lessons are tuesdays at 4pm")."""
    held = old & asked.thing
    head = {asked.head} & held if asked.head else set()
    return bool(held) and head <= new and _whose_kept(asked, old, new)


def _whose_kept(asked: Asked, old: frozenset[str] | set[str], new: frozenset[str] | set[str]) -> bool:
    """Whether the later statement says whose the thing is where the earlier one does."""
    return not old & asked.whose or bool(new & asked.whose)


def earlier(memories: Mapping[str, Mapping[str, Any]], words: Mapping[str, Any], new: str) -> list[str]:
    """The candidates (``words``' keys, each with ``said``) the same speaker said before ``new``."""
    said, speaker = memories[new]["said"], memories[new].get("speaker")
    return [old for old in words if memories[old]["said"] < said and memories[old].get("speaker") == speaker]


def restated_later(
    memories: Mapping[str, Mapping[str, Any]],
    words: Mapping[str, frozenset[str] | set[str]],
    query: str,
) -> dict[str, set[str]]:
    """Per statement, the later ones that restate its value (see the module). ``words``: the content words of
    the best k statements (graphmem.retrieval.changes: speakers' names left out), the candidates. Only for a
    question that asks for a value of a kind (:func:`_kind`); the later statement names the
    thing as the earlier does (:func:`same_thing`) and gives a value of that kind the earlier does not hold
    (a value said again is no change: "kids love mrs duarte's cookies" after "mrs duarte said shed watch the
    kids"), in a sentence that names the thing and within :data:`NEAR` words of it (a value beside another
    thing is not its: "Saw the dentist today for a cleaning, the hygienist Maria was really gentle")."""
    values = _kind(query)
    if values is None:
        return {}
    asked, now = asked_of(query), NOW.search(query) is not None
    held = {mid: {v for v, _ in values(str(memories[mid].get("content") or ""))} for mid in words}
    later: dict[str, set[str]] = {}
    for new in words:
        content = str(memories[new].get("content") or "")
        if not words[new] & asked.thing or asks_only(content) or _anothers(content, asked):
            continue
        if not now and values is _times and tense_of(content) is False:
            continue  # a report of one time ("missed yoga on wednesday"), not the time as it stands
        given = frozenset().union(*(_near(part, asked, values(part)) for part in _SENTENCE.split(content)))
        for old in earlier(memories, words, new):
            if given - held[old] - asked.whose and same_thing(asked, words[old], words[new]):
                later.setdefault(old, set()).add(new)
    return later


def _anothers(text: str, asked: Asked) -> bool:
    """Whether ``text`` names the thing asked as someone else's ("my mum's birthday" for "when is my
    birthday?", "mira's new coach" for "who is leo's coach?"): a possessive right before a word of the thing
    (or a word such as "new" before it) whose owner the question does not name; not "Jordo's started work"
    ("'s" for "has")."""
    for m in _POSSESSIVE.finditer(text.replace("\u2019", "'")):
        owner, word = stem(m.group(1).lower()), stem(m.group(2).lower())
        if word in asked.thing and owner not in asked.whose and owner not in STOP_WORDS:
            return True
    return False


_POSSESSIVE = re.compile(
    r"\b([A-Za-z][\w-]*)'s\s+(?:(?:new|old|first|next|last|usual|regular|weekly|little|big)\s+)?"
    r"([A-Za-z][\w-]*)",
    re.IGNORECASE,
)
NEAR = 5
"""How many words from a word of the thing asked a value may stand to be its: a value and what it is of
stand in one short phrase ("swim lessons thursdays 6pm", "new lead is called hana", "mr pham, as coach"),
one of another thing further ("the landlord sent a plumber, a guy named Pete", "Saw the dentist today for a
cleaning, the hygienist Maria"; 7 and 8 words). The rule's one tuned number: 4, 5 and 6 gave the same
first hits on the assistant sets and on a review's 46 probes (round 64); without it, two more read questions
right and three probes wrong that the base had right."""
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+|\s+(?:but|though|although)\s+", re.IGNORECASE)


def _kind(query: str) -> Callable[[str], Found] | None:
    """What value the question asks for, as the values of that kind a text gives (:data:`Found`): times,
    people, counts, amounts of money; None for any other question (what, where, which: their values have no
    shape of their own, and a later statement that only names the thing would outdate the answer). A
    question opening with "when" asks a time whoever it names later ("when is the guy who is fixing the
    boiler coming now?")."""
    query = query.replace("\u2019", "'")
    if _ASKS_WHEN.search(query) and not re.match(rf"{_LEAD_IN}(?:who|whom|whose)\b", query, re.IGNORECASE):
        return _times
    if _ASKS_WHO.search(query):
        return people_named
    if _ASKS_COUNT.search(query):
        return functools.partial(_found, _COUNT)
    if _ASKS_MONEY.search(query):
        return functools.partial(_found, _MONEY)
    return None


Found = tuple[tuple[str, int], ...]
"""Values a text gives, each with where it starts: lower case, no spaces, no plural ("Thursdays" and
"thursday", "6 pm" and "6pm"), people's names stemmed."""


@functools.lru_cache(maxsize=65536)
def _found(pattern: re.Pattern[str], text: str) -> Found:
    return tuple(
        (re.sub(r"\s+", "", m.group().lower()).removesuffix("s"), m.start()) for m in pattern.finditer(text)
    )


def _times(text: str) -> Found:
    """The times a text gives (:data:`_TIME`)."""
    return _found(_TIME, text)


@functools.lru_cache(maxsize=65536)
def people_named(text: str) -> Found:
    """The words of ``text`` that name a person (see :data:`_TITLED` and below): no function word, nor a word
    that names no one (graphmem.model.people.NOT_A_NAME: a pronoun, a relative, a month or weekday, written
    short or plural too: "Mondays"). Cached: a memory's words do not change."""
    found = [(m.group(1), m.start(1)) for m in _TITLED.finditer(text)]
    found += [(m.group(1), m.start(1)) for m in _AFTER_NAMING.finditer(text)]
    found += [(m.group(), m.start()) for m in _CAPITALISED.finditer(text)]
    found += [(m.group(), m.start()) for m in _OPENING.finditer(text) if is_first_name(m.group())]
    named = []
    for word, at in found:
        bare = word.lower().split("'")[0]
        if not any(
            w in STOP_WORDS or w in NOT_A_NAME or w in _SHORT_DATES for w in (bare, bare.removesuffix("s"))
        ):
            named.append((stem(bare), at))
    return tuple(named)


@functools.lru_cache(maxsize=65536)
def _words_at(text: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Where each word of ``text`` starts, and its stem (cached: a memory's words do not change)."""
    words = [(m.start(), stem(m.group().lower().split("'")[0])) for m in _WORD.finditer(text)]
    return tuple(start for start, _ in words), tuple(word for _, word in words)


def _near(text: str, asked: Asked, found: Found) -> frozenset[str]:
    """The values ``found`` in ``text`` that stand within :data:`NEAR` words of a word of the thing asked."""
    starts, stems = _words_at(text)
    at_thing = [i for i, word in enumerate(stems) if word in asked.thing]
    return frozenset(
        value
        for value, at in found
        if any(abs(bisect.bisect_right(starts, at) - 1 - i) <= NEAR for i in at_thing)
    )
