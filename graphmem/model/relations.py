"""The people in a user's life, as facts (pure): "my sister Ana", "My manager is Tom Becker", "Priya is my
best friend", "Tom, my boss, said ...", "my dentist is Dr. Patel".

A role one holds one at a time is a relation of the key scheme, its value the person's name (``partner:
Sarah``, ``manager: Tom Becker``, ``dentist: Dr. Patel``; graphmem.model.fact_keys): a new manager supersedes
the old one, as a new home does. A relation one has with many people at once (sisters, friends, colleagues) is
keyed by the person, its value the relation (``person:Ana: sister``): a second sister is not a change of the
first. Only the speaker's own relations ("my ..."): "her sister Ana" names nobody's sister the key could say.

A name must be a person's: a given name of one of faker's locales (graphmem.model.people.is_first_name), or a
title and a name ("Dr. Patel"), so "My boss is Indian" and "my son Saturday" state nothing. Not a former or a
passing relation ("my ex Tom", "my old boss Tom", "my late husband Bob": the words between "my" and the
relation are a closed list that leaves them out), and not a past one ("Tom was my boss")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import NamedTuple

from graphmem.model.extracted import ExtractedFact
from graphmem.model.fact_keys import PEOPLE_ROLES, who_is
from graphmem.model.pattern_pieces import INNER_STOP, compile_rule
from graphmem.model.people import NOT_A_NAME, is_first_name
from graphmem.model.places import is_place
from graphmem.model.planned import supposed
from graphmem.models import FactType

__all__ = ["ONE_HOLDER", "Named", "named_relatives", "relations"]

ONE_HOLDER = PEOPLE_ROLES
"""The roles one holds one at a time, and the words that name each (graphmem.model.fact_keys)."""

_MANY = (
    "best friend", "friend", "sister", "brother", "son", "daughter", "kid", "child", "cousin", "aunt",
    "auntie", "uncle", "niece", "nephew", "grandma", "grandmother", "granny", "nan", "nana", "grandpa",
    "grandfather", "grandad", "granddad", "stepson", "stepdaughter", "colleague", "coworker", "co-worker",
    "teammate", "roommate", "flatmate", "housemate", "neighbour", "neighbor", "mentor", "tutor",
    # round 63, from blind sets of an assistant's users: more family, and friends by other words. Not the
    # people who serve or lead one (a physio, a coach, an advisor, a team lead): one has one at a time, and
    # as a relation with many a new one would leave the old one current
    "granddaughter", "grandson", "grandchild", "grandkid", "stepmum", "stepmom", "stepdad", "stepbrother",
    "stepsister", "half-brother", "half-sister", "godmother", "godfather", "goddaughter", "godson",
    "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law", "son-in-law", "daughter-in-law",
    "mother in law", "father in law", "sister in law", "brother in law", "mate", "pal", "buddy", "bestie",
    "classmate",
)  # fmt: skip
_ROLE_OF = {word.lower(): relation for relation, words in ONE_HOLDER.items() for word in words}
_WORDS = sorted({*_ROLE_OF, *_MANY}, key=len, reverse=True)
_REL = rf"(?P<rel>(?i:{'|'.join(re.escape(w) for w in _WORDS)}))"
# what may stand between "my" and the relation ("my little brother Sam"; not "ex", "old", "late", "former")
_MOD = r"(?:(?:new|little|big|baby|younger|older|elder|eldest|oldest|youngest|twin|dear|lovely|closest) )?"
_TITLES = ("Dr", "Mr", "Mrs", "Ms", "Mx", "Prof", "Professor", "Doctor")
_TITLE = rf"(?:(?:{'|'.join(_TITLES)})[.{INNER_STOP}]? )"  # "Dr. Patel" (shielded)
# a name as written, its letters of any script ("Zoë", "José"; pattern_pieces.NAME takes a-z only)
_NAME = r"(?![IA]\b|I['’])[A-Z][^\W\d_]*(?:['’-][A-Z]?[^\W\d_]+)*"
_PERSON = rf"(?P<name>{_TITLE}?{_NAME}(?: {_NAME})?)(?![\w'’-](?!s\b))"
_S = "['’]s"
_MY = rf"\b[Mm]y {_MOD}{_REL}"
_WHOSE = rf"{_REL}(?![\w'’-])"  # not "my boss's son", "my mother-in-law": someone else's, another relation
_PATTERNS = [
    compile_rule(rf"{_MY},? {_PERSON}"),  # "my sister Ana", "my boss, Tom Becker,"
    compile_rule(
        rf"{_MY}(?:{_S} name)? (?:is|{_S})(?: called| named)? {_PERSON}"
    ),  # "My manager is Tom Becker"
    compile_rule(
        rf"(?<![\w'’-]){_PERSON}(?: is|{_S}) (?:also |now )?my {_MOD}{_WHOSE}"
    ),  # "Priya is my friend"
    compile_rule(rf"(?<![\w'’-]){_PERSON}, my {_MOD}{_WHOSE}"),  # "Tom, my boss, said"
]
_GATE = re.compile(r"\bmy\b", re.I)


def relations(text: str) -> list[ExtractedFact]:
    """The speaker's relations a turn states, in the order said (the last said of a one-holder role wins)."""
    if _GATE.search(text) is None:
        return []
    found: dict[str, ExtractedFact] = {}
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            word = m.group("rel")
            relation = _ROLE_OF.get(word.lower())
            name = _name(m.group("name"), loose=_loose(pattern, m, relation))
            if name is None or supposed(text, m.span()):  # "If my boss is Tom, ...": no relation
                continue
            if relation is not None:
                key, value = relation, name
            else:
                key, value = f"person:{name}", _MANY_AS.get(word.lower(), word.lower())
            fact = ExtractedFact(key, value, FactType.PROFILE, span=m.span())
            kept = found.get(key)
            if kept is None or (kept.span or (0, 0))[0] < m.start():
                found[key] = fact
    return sorted(found.values(), key=lambda f: (f.span or (0, 0))[0])


_MANY_AS = {
    "co-worker": "colleague", "coworker": "colleague", "neighbor": "neighbour", "kid": "child",
    "grandkid": "grandchild",
    **{f"{who} in law": f"{who}-in-law" for who in ("mother", "father", "sister", "brother")},
}  # fmt: skip


def _loose(pattern: re.Pattern[str], m: re.Match[str], role: str | None) -> bool:
    """Whether a name no faker locale gives is read at ``m``: right after the word of a relation one has with
    many, one space between ("my brother Sunil", "my granddaughter Efua"). Not after a comma ("I texted my
    boss, Slack is down again"), nor for a role one holds alone, where a wrong name would replace the right
    one ("Tell my wife Happy birthday from me")."""
    return pattern is _PATTERNS[0] and role is None and m.string[m.end("rel") : m.start("name")] == " "


def _name(said: str, *, loose: bool = False) -> str | None:
    """The person's name as said, less a trailing possessive ("Ana's"), when it is one: a title and a name
    ("Dr. Patel"), or a given name first, a surname after it ("Tom Becker"; not a weekday, a month or a
    sentence adverb: "my son Leo Saturday" is Leo). A place is not told from a surname (Lopez, Jones and
    Garcia are GeoNames places): "my sister Ana Paris was lovely" keeps "Ana Paris". ``loose``
    (:func:`_loose`): a capitalised word that is no place and names no one else is a name though no faker
    locale gives it (Efua, Sunil, Tobi)."""
    words = re.sub(r"['’]s$", "", said).split(" ")
    if words[0].rstrip("." + INNER_STOP) in _TITLES:
        return " ".join(words) if len(words) > 1 else None
    if words[0].lower() in NOT_A_NAME:
        return None
    unknown = not words[0][:1].isupper() or len(words[0]) < 2 or is_place(words[0])
    if not is_first_name(words[0]) and (not loose or unknown):
        return None
    return " ".join([words[0], *(w for w in words[1:2] if w.lower() not in NOT_A_NAME)])


# the relation word as a compound's first part names a thing, not the person: "my dentist appointment"
_NOT_A_COMPOUND = (
    r"(?!\s+(?:appointments?|appt|visits?|check-?ups?|bills?|office|surgery|practice|clinic|group|chat|"
    r"meetings?|1:1|one-on-one)\b)"
)
_ALSO = {"colleague": ("co-worker", "coworker"), "neighbour": ("neighbor",), "child": ("kid",)}


class Named(NamedTuple):
    """A question with the people it names by their relation named too (:func:`named_relatives`)."""

    asked: str  # as the user asked it: "Where does my sister live?"
    text: str  # for full text and the query's names: "Where does my sister Ana live?"
    vector: str  # for its vector: "Where does Ana live?"
    pairs: tuple[tuple[str, str], ...]  # the relation as said and the name: ("sister", "Ana")


def named_relatives(
    query: str, people: Iterable[tuple[str, str, datetime | None]], *, at: datetime | None = None
) -> Named:
    """The question with the name of each person it names by their relation to the user, from the user's
    relation facts (``people``: key, value, valid from). Full text asks for either ("Where does my sister Ana
    live?", the two words alternatives: graphmem.retrieval.bm25, so "My sister Ana is a nurse" is not matched
    twice for naming her twice), the query's names and the walk over the entity graph take the name, and the
    vector asks by the name ("Where does Ana live?": with both, the sentence that introduced her, "My sister
    Ana is a nurse", was nearest whatever the question asked of her). A role is named by the given name people
    use after the first mention ("Tom", not "Tom Becker"; "Dr. Patel" whole). Only where one person holds the
    relation (two sisters: neither), not where the question asks who they are ("Who is my boss?": what the
    fact itself says), and a role one holds one at a time at ``at`` (an ``as_of`` read) only when its current
    holder held it then (valid from before it: another may have held it then; a sister stays one)."""
    if _GATE.search(query) is None:
        return Named(query, query, query, ())
    text, vector, pairs = query, query, []
    for word, name in _holders(people, at).items():
        first = name.split(" ", 1)[0]
        called = first if is_first_name(first) else name  # "Tom", "Dr. Patel", "Sunil Rao" whole
        named = re.search(rf"(?<![\w'’-]){re.escape(called)}(?![\w'’-](?!s\b))", query, re.I)
        if named or re.search(who_is(re.escape(word)), query, re.I):
            continue  # named already ("Where does my sister Ana live?"), or asked who they are
        said = rf"\b[Mm]y {_MOD}((?i:{re.escape(word)}))\b(?![-’'](?!s\b)){_NOT_A_COMPOUND}"
        if (found := re.search(said, text)) is not None:
            text = f"{text[: found.end()]} {called}{text[found.end() :]}"
            vector = re.sub(said, lambda _: called, vector, count=1)  # noqa: B023 (used at once)
            pairs.append((found.group(1), called))
    return Named(query, text, vector, tuple(pairs))


def _holders(people: Iterable[tuple[str, str, datetime | None]], at: datetime | None) -> dict[str, str]:
    """Each relation word the user's relation facts give one person, that person's name, longest word first
    ("best friend" before "friend"); another speaker's keys and values not text are left out."""
    holders: dict[str, set[str]] = {}
    for key, value, since in people:
        if not isinstance(key, str) or not isinstance(value, str) or "/" in key:
            continue
        if key.startswith("person:"):
            name, words = key.removeprefix("person:"), (value, *_ALSO.get(value, ()))
        elif key in ONE_HOLDER and (at is None or (since is not None and since <= at)):
            name, words = value, ONE_HOLDER[key]
        else:
            continue
        if len(name) > 60 or _name(" ".join(name.split()[:3]), loose=True) is None:  # not "deceased" ...
            continue
        for word in words:
            holders.setdefault(word.lower(), set()).add(name)
    ones = {word: next(iter(names)) for word, names in holders.items() if len(names) == 1}
    return dict(sorted(ones.items(), key=lambda item: -len(item[0])))
