"""A value said again (pure): for a question that asks what holds now ("who's my team lead now?", "when is
swimming these days?"), of the best ``k`` statements, a later one of the same speaker that gives a value of
the kind the question asks for (a person for "who", a time for "when", an amount for "how much") of the thing
the question names outdates the earlier ones that name it too.

People restate what changed without a word that says so ("thursday's lesson is at 5 btw" after "lessons are
4pm", "jen's replacement is a guy named Tomasz", "mrs duarte said shed watch the kids wed n fri"), so no list
of change words (graphmem.retrieval.changes.CHANGE) covers them. What they share is structure: the later
statement is about the same thing (:func:`same_thing`: a word the question and both statements hold, other
than whose the thing is: "coach" in "who's jaylen's soccer coach now?", not "jaylen") and gives the kind of
value asked. Two conditions keep it to questions about a value that changes: the question asks for a value
with a shape of its own (a person, a time, an amount; not "what" or "where", whose values have none, so that
a later statement that only names the thing, "my pal Shona's sister is ALSO called Eilidh", cannot outdate
"my sister got the deputy head job"), and it asks for the present in so many words (:data:`NOW`: "now",
"these days", "currently", "still"): most present-tense questions ask what was said once and holds ("who is
Lakshmi engaged to?"). Measured in round 64 on the assistant sets (docs/temporal.md, "A value said
again")."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from graphmem.model.date_patterns import MONTHS, WEEKDAYS
from graphmem.model.people import is_first_name
from graphmem.model.scoring import asks_only
from graphmem.retrieval.bm25 import stem
from graphmem.retrieval.terms import STOP_WORDS, query_terms

__all__ = ["NOW", "WHEN", "Asked", "asked_of", "content_words", "earlier", "restated_later", "same_thing"]

NOW = re.compile(
    r"\b(?:now|these days|currently|at the moment|at present|still|any ?more|nowadays|lately|current)\b",
    re.IGNORECASE,
)
"""A question that asks what holds at present in so many words."""

WHEN = (
    r"(?:(?:every |the )?(?:mon|tues?|wed(?:nes)?|thurs?|fri|sat(?:ur)?|sun)(?:day)?s?\b|"
    r"the \d{1,2}(?:st|nd|rd|th)\b|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|(?:next|this) (?:week|month)\b|"
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|(?:morning|afternoon|evening)s\b)"
)
"""A time a change moves something to (graphmem.retrieval.changes.CHANGE): a weekday (abbreviated, plural),
the Nth, a clock time, a month, "next week", mornings."""

_LEAD_IN = r"^\W*(?:[\w']+\W+){0,3}?"  # "hey", "ok so", "quick q:" before the question word
_ASKS_WHEN = re.compile(
    rf"{_LEAD_IN}when\b|\b(?:what|which) (?:time|date|days?|evenings?|mornings?|nights?|weekday)\b"
    r"|\bhow often\b",
    re.IGNORECASE,
)
_ASKS_WHO = re.compile(rf"{_LEAD_IN}(?:who|whom|whose)\b|\bwho(?:'s| is| are)\b", re.IGNORECASE)
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
_CALENDAR = frozenset({*MONTHS, *WEEKDAYS, *(w[:3] for w in (*MONTHS, *WEEKDAYS)), "sept", "tues", "thurs"})
"""Capitalised words that name no one: "Nov 13", "Tues"."""
_WORD = re.compile(r"[A-Za-z][\w'-]*")


@dataclass(frozen=True)
class Asked:
    """What a question asks about, as :func:`content_words` writes words: ``thing``, its content words less
    ``whose``, the people whose the thing is (its possessors and capitalised given names: "coach" and
    "soccer", and "jaylen", of "who's jaylen's soccer coach now?"; every statement about Jaylen names
    him)."""

    thing: frozenset[str]
    whose: frozenset[str]


@functools.lru_cache(maxsize=1024)
def asked_of(query: str) -> Asked:
    """:class:`Asked` of a question (cached: every candidate of a recall asks)."""
    whose: set[str] = set()
    for m in _WORD.finditer(query.replace("\u2019", "'")):
        word = m.group()
        if word.lower().endswith("'s") and word.lower()[:-2] not in STOP_WORDS:  # "who's" owns nothing
            whose.add(stem(word.lower()[:-2]))
        elif m.start() > 0 and word.istitle() and is_first_name(word):  # "job", "will": words too
            whose.add(stem(word.lower()))
    return Asked(frozenset(content_words(query) - whose), frozenset(whose))


@functools.lru_cache(maxsize=65536)
def content_words(text: str) -> frozenset[str]:
    """Lower-case words of three letters or more that are not function words, as the full-text index stems
    them: "moving on the 14th" and "the move date is pushed to the 21st" share "move"."""
    found = {term.split("'")[0] for term in query_terms(text)}  # "i'm" -> "i"
    return frozenset(stem(w) for w in found if len(w) >= 3 and w not in STOP_WORDS)


def same_thing(asked: Asked, old: frozenset[str] | set[str], new: frozenset[str] | set[str]) -> bool:
    """Whether two statements' words (:func:`content_words`) name the thing asked: a word of it both hold,
    and whose it is where the earlier says ("leo's swimming is fridays" is not outdated by "mira's swimming
    moved to thursdays" for "when is leo's swimming now?")."""
    return bool(old & new & asked.thing) and (not old & asked.whose or bool(new & asked.whose))


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
    question with :data:`NOW` that asks for a value of a kind (:func:`_kind`)."""
    kind = _kind(query)
    if kind is None or not NOW.search(query):
        return {}
    asked = asked_of(query)
    later: dict[str, set[str]] = {}
    for new in words:
        content = str(memories[new].get("content") or "")
        if not words[new] & asked.thing or asks_only(content) or not kind(content, asked.whose):
            continue
        for old in earlier(memories, words, new):
            if same_thing(asked, words[old], words[new]):
                later.setdefault(old, set()).add(new)
    return later


def _kind(query: str) -> Callable[[str, frozenset[str]], bool] | None:
    """What value the question asks for, as a test of a statement: a time, a person, a count, an amount of
    money; None for any other question (what, where, which: their values have no shape of their own, and a
    later statement that only names the thing would outdate the answer). A question opening with "when"
    asks a time whoever it names later ("when is the guy who is fixing the boiler coming now?")."""
    query = query.replace("\u2019", "'")
    if _ASKS_WHEN.search(query) and not re.match(rf"{_LEAD_IN}(?:who|whom|whose)\b", query, re.IGNORECASE):
        return lambda text, _whose: _TIME.search(text) is not None
    if _ASKS_WHO.search(query):
        return _names_someone
    if _ASKS_COUNT.search(query):
        return lambda text, _whose: _COUNT.search(text) is not None
    if _ASKS_MONEY.search(query):
        return lambda text, _whose: _MONEY.search(text) is not None
    return None


def _names_someone(text: str, whose: frozenset[str]) -> bool:
    """Whether ``text`` names a person other than those the question names (``whose``, stemmed)."""
    return bool(_people_named(text) - whose)


@functools.lru_cache(maxsize=65536)
def _people_named(text: str) -> frozenset[str]:
    """The words of ``text`` that name a person (stemmed; see :data:`_TITLED` and below), no function word,
    month or weekday (a plural too: "Mondays"). Cached: a memory's words do not change."""
    found = {m.group(1) for m in _TITLED.finditer(text)}
    found |= {m.group(1) for m in _AFTER_NAMING.finditer(text) if m.group(1).lower() not in STOP_WORDS}
    found |= {m.group() for m in _CAPITALISED.finditer(text)}
    found |= {m.group() for m in _OPENING.finditer(text) if is_first_name(m.group())}
    bare = {w.lower().split("'")[0] for w in found}
    return frozenset(
        stem(w)
        for w in bare
        if w not in STOP_WORDS and w not in _CALENDAR and w.removesuffix("s") not in _CALENDAR
    )
