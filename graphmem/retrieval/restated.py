"""A value said again (pure): for a question that asks what holds now ("who's my team lead now?", "when is
swimming these days?"), of the best ``k`` statements, a later one of the same speaker that gives a value of
the kind the question asks for (a person for "who", a time for "when", an amount for "how much") of the thing
the question names outdates the earlier ones that name it too.

People restate what changed without a word that says so ("thursday's lesson is at 5 btw" after "lessons are
4pm", "jen's replacement is a guy named Tomasz", "mrs duarte said shed watch the kids wed n fri"), so no list
of change words (graphmem.retrieval.changes.CHANGE) covers them. What they share is structure: the later
statement is about the same thing (a word the question and both statements hold, other than a person's
given name: "coach" in "who's jaylen's soccer coach now?", not "jaylen") and gives the kind of value asked.
Two conditions keep it to questions about a value that changes: the question asks for a value with a shape
of its own (a person, a time, an amount; not "what" or "where", whose values have none, so that a later
statement that only names the thing, "my pal Shona's sister is ALSO called Eilidh", cannot outdate "my
sister got the deputy head job"), and it asks for the present in so many words (:data:`NOW`: "now", "these
days", "currently", "still"): most present-tense questions ask what was said once and holds ("who is
Lakshmi engaged to?").
Measured in round 64 on the assistant sets (docs/temporal.md, "A value said again")."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from graphmem.model.date_patterns import MONTHS, WEEKDAYS
from graphmem.model.people import is_first_name
from graphmem.model.scoring import asks_only
from graphmem.retrieval.terms import STOP_WORDS

__all__ = ["NOW", "WHEN", "asked_thing", "restated_later"]

NOW = re.compile(
    r"\b(?:now|these days|currently|at the moment|at present|still|any ?more|nowadays|lately|latest|"
    r"current)\b",
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
"""A time as people write one in a schedule: a weekday (abbreviated, plural), the Nth, a clock time, a
month, mornings."""

_ASKS_WHO = re.compile(r"^\W*(?:who|whom|whose)\b|\bwho(?:'s| is| are)\b", re.IGNORECASE)
_ASKS_WHEN = re.compile(
    r"^\W*when\b|\b(?:what|which) (?:time|days?|evenings?|mornings?|nights?|weekday)\b|\bhow often\b",
    re.IGNORECASE,
)
_ASKS_AMOUNT = re.compile(
    r"\bhow (?:much|many)\b|\b(?:price|rate|cost|costs|fee|fees|rent|salary)\b", re.IGNORECASE
)
_TIME = re.compile(rf"\b{WHEN}|\b\d{{1,2}}[:.]\d\d\b|\b\d{{1,2}}\s*h\b|\bnoon\b", re.IGNORECASE)
_AMOUNT = re.compile(r"[\d$£€¥]")
_INTRODUCED = re.compile(
    r"\b(?:mr|mrs|ms|miss|dr|prof|coach|named|called)\.?\s+([a-z][\w'-]+)", re.IGNORECASE
)
_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<![.!?])(?<!^)\b(?!I\b|I')[A-Z][\w'-]+")
_OPENING = re.compile(r"(?:^|(?<=[.!?]\s))[A-Z][\w'-]+")
_CALENDAR = frozenset({*MONTHS, *WEEKDAYS, *(w[:3] for w in (*MONTHS, *WEEKDAYS)), "sept", "tues", "thurs"})
"""Capitalised words that name no one: "Nov 13", "Tues"."""
_WORD = re.compile(r"[A-Za-z][\w'-]*")


def restated_later(
    memories: Mapping[str, Mapping[str, Any]],
    words: Mapping[str, set[str]],
    query: str,
    asked: set[str],
) -> dict[str, set[str]]:
    """Per statement, the later ones of the same speaker that restate its value (see the module). ``words``:
    the content words of the best k statements (graphmem.retrieval.changes: stemmed, speakers' names left
    out), the candidates; ``asked``: the question's content words. Only for a question with :data:`NOW`."""
    kind = _kind(query)
    if kind is None or not NOW.search(query):
        return {}
    names = _given_names(query)
    slot = asked - names
    givers = {
        mid
        for mid in words
        if words[mid] & slot
        and not asks_only(content := str(memories[mid].get("content") or ""))
        and kind(content, names)
    }
    later: dict[str, set[str]] = {}
    for new in givers:
        for old in words:
            if (
                old != new
                and memories[old]["said"] < memories[new]["said"]
                and memories[old].get("speaker") == memories[new].get("speaker")
                and words[old] & words[new] & slot
            ):
                later.setdefault(old, set()).add(new)
    return later


def asked_thing(query: str, asked: set[str]) -> set[str]:
    """The words of the thing a question asks about: its content words (``asked``) less people's given names
    and whose the thing is ("coach" and "soccer" in "who's jaylen's soccer coach now?": every statement about
    Jaylen names him)."""
    return asked - _given_names(query)


def _given_names(query: str) -> set[str]:
    """The question's possessors ("jaylen" of "jaylen's soccer coach": whose the thing is, not what; "who's"
    is no possessor) and its capitalised given names ("Mira" in "When does Mira have ballet now?"; a given
    name typed in lower case is often a word too: "job", "will")."""
    found = set()
    for m in _WORD.finditer(query.replace("\u2019", "'")):
        word = m.group()
        if word.lower().endswith("'s") and word.lower()[:-2] not in STOP_WORDS:
            found.add(word.lower()[:-2])
        elif m.start() > 0 and word.istitle() and is_first_name(word):
            found.add(word.lower())
    return found


def _kind(query: str) -> Callable[[str, set[str]], bool] | None:
    """What value the question asks for, as a test of a statement: a person, a time, an amount; None for any
    other question (what, where, which: their values have no shape of their own, and a later statement that
    only names the thing, "my pal Shona's sister is ALSO called Eilidh", would outdate the answer)."""
    if _ASKS_WHO.search(query):
        return _names_someone
    if _ASKS_WHEN.search(query):
        return lambda text, _names: _TIME.search(text) is not None
    if _ASKS_AMOUNT.search(query):
        return lambda text, _names: _AMOUNT.search(text) is not None
    return None


def _names_someone(text: str, asked: set[str]) -> bool:
    """Whether ``text`` names a person other than the question's own (``asked``, lower case): a title and a
    name ("mr pham", "Dr. Okafor"), a name after "named" or "called" ("a guy named tomasz"), a capitalised
    word inside a sentence, or a capitalised given name opening one ("Tomasz starts monday"); no month or
    weekday."""
    found = {m.group(1).lower() for m in _INTRODUCED.finditer(text)}
    found |= {m.group().lower() for m in _CAPITALISED.finditer(text)}
    found |= {m.group().lower() for m in _OPENING.finditer(text) if is_first_name(m.group())}
    return bool({w.split("'")[0] for w in found} - asked - _CALENDAR)
