"""The people in a user's life who no longer hold their relation, as endings (pure): "Tom isn't my boss any
more", "my boss is no longer Tom", "Sam is no longer my flatmate", "I broke up with Sam", "we split up".

Each is an ending of the relation's fact (graphmem.model.relations: ``manager: Tom Becker``, ``person:Sam:
flatmate``), closed by :func:`graphmem.model.fact_endings.plan_end`: a role one holds one at a time ends its
holder named ("Tom" names "Tom Becker"), or, unnamed ("we broke up", "I don't have a therapist any more"),
whoever holds it; a relation one has with many ends the relation named, its value as relations.py stores it
("flatmate"), so "Ana isn't my flatmate any more" does not end Ana the sister (``person:Ana: sister``),
whatever else ``person:Ana`` holds. A relation of kin (a sister, a mother) does not end by being said to:
"Ana isn't my sister any more" tells of a rift, not of a change of the fact.

First person and said as a fact only: not supposed or asked ("If Tom isn't my boss any more, ...", "Did Sam
and I break up?", "Wait, Tom isn't my boss any more?"), not hoped ("I wish Tom wasn't ..."), not someone
else's ("Ana broke up with Sam", "Tom isn't her boss any more"), not ahead ("Tom won't be my boss after
March"), and not a former relation merely named ("my ex Sam" states no change)."""

from __future__ import annotations

import re

from graphmem.model.extracted import ExtractedFact
from graphmem.model.pattern_pieces import compile_rule
from graphmem.model.planned import supposed
from graphmem.model.relations import _MANY_AS, _MOD, _PERSON, _ROLE_OF, _name, relations
from graphmem.models import FactType

__all__ = ["ended_relations", "said_of_people"]

# the relations with many that end (not kin: a sister stays a sister), and the plural "Ana and I" says
_ENDS_MANY = (
    "best friend", "friend", "colleague", "coworker", "co-worker", "teammate", "roommate", "flatmate",
    "housemate", "neighbour", "neighbor", "mentor", "tutor",
)  # fmt: skip
_KIN = ("mother", "father")  # one-holder roles that do not end by being said to
_ROLE_WORDS = [w for w, role in _ROLE_OF.items() if role not in _KIN]
_PARTNER_WORDS = [w for w, role in _ROLE_OF.items() if role == "partner"]


def _words(words: list[str] | tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_REL = rf"(?P<rel>(?i:{_words([*_ROLE_WORDS, *_ENDS_MANY])}))(?![\w'’-])"  # not "my boss's son"
_ROLE = rf"(?P<rel>(?i:{_words(_ROLE_WORDS)}))(?![\w'’-])"
_PARTNER = rf"(?P<rel>(?i:{_words(_PARTNER_WORDS)}))(?![\w'’-])"
_WHO = rf"(?<![\w'’-]){_PERSON}(?<!['’]s)(?!['’]s\b)"  # a name, not "Sam's" (someone else's)
_NO_MORE = r"(?:any ?more|any longer)\b"
_ISNT = r"(?:isn['’]t|is not|['’]s not)"
_NO_LONGER = r"(?:is|['’]s) no longer"
_NOT_TOGETHER = (  # (with its leading space: "we're no longer together", "Sam and I aren't friends any more")
    rf"(?: are no longer|['’]re no longer|(?: aren['’]t| are not|['’]re not)(?= (?:a )?\w+ {_NO_MORE}))"
)
_TOGETHER = {"together": "partner", "a couple": "partner", "married": "partner"}
_PLURAL = {f"{w}s": w for w in _ENDS_MANY}  # "Ana and I aren't friends any more"
_PAIR = rf"(?P<rel>(?i:{_words([*_TOGETHER, *_PLURAL])}))\b"
# where a parting ends its clause, or a time follows ("we broke up last month"; not "we split up the bill",
# "we broke up for the summer", "Sam dumped me at the station"); "and", "but", "so" only after "broke up"
_TIME = (
    r"last|this|in|on|after|recently|yesterday|today|earlier|a (?:few|couple)|(?:\d+|a|one|two|three) \w+ ago"
)
_TERM = (
    r"(?![^.!?\n]*\bfor (?:the )?(?:holidays?|summer|christmas|term))"  # a school's: "broke up for summer"
)
_DONE = rf"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:{_TIME})\b){_TERM}"
_BROKE_DONE = rf"(?:{_DONE}|(?=\s+(?:and|but|so|because)\b))"
_SOON = r"(?:just |finally |officially )?"
_HAVE = r"(?:['’]ve| have)"
_BROKE = rf"(?: {_SOON}broke up|{_HAVE} {_SOON}broken up)"  # (with its leading space, as below)
_SPLIT = rf"(?: {_SOON}(?:split up|separated|divorced|got divorced)|{_HAVE} {_SOON}(?:split up|separated))"
_PARTED = rf"(?:{_BROKE}{_BROKE_DONE}|{_SPLIT}{_DONE})"
_UP_WITH = rf"(?: {_SOON}(?:broke|split) up|{_HAVE} {_SOON}(?:broken|split) up) with"
_SUBJECT = rf"(?<![\w'’-]){_PERSON}"  # "Tom's not my boss": the name before "'s"
_NAMED: list[re.Pattern[str]] = [  # a name and the relation word
    compile_rule(rf"{_SUBJECT}(?: isn['’]t| is not|['’]s not) my {_MOD}{_REL} {_NO_MORE}"),
    compile_rule(rf"{_SUBJECT}(?: is|['’]s) no longer my {_MOD}{_REL}"),  # "Tom is no longer my manager"
    compile_rule(rf"\b[Mm]y {_MOD}{_REL} {_ISNT} {_WHO} {_NO_MORE}"),  # "my boss isn't Tom any more"
    compile_rule(rf"\b[Mm]y {_MOD}{_REL} {_NO_LONGER} {_WHO}"),  # "my boss is no longer Tom"
    compile_rule(rf"{_WHO} and I{_NOT_TOGETHER} {_PAIR}"),  # "Sam and I aren't together any more"
]
_PARTNER_ENDS: list[re.Pattern[str]] = [  # the partner, named or not
    compile_rule(rf"\bI{_UP_WITH} my {_MOD}{_PARTNER}(?:,? {_WHO})?{_BROKE_DONE}"),  # "... my boyfriend"
    compile_rule(rf"\bI{_UP_WITH} (?:{_WHO}|(?:him|her|them)\b){_BROKE_DONE}"),  # "I broke up with Sam"
    compile_rule(rf"{_WHO} and I{_PARTED}"),  # "Sam and I split up"
    compile_rule(rf"\b[Mm]e and {_WHO}{_PARTED}"),  # "me and Sam broke up"
    compile_rule(rf"\b[Ww]e{_PARTED}"),  # "we broke up", "we separated"
    compile_rule(rf"\b[Ww]e{_NOT_TOGETHER} (?:together|a couple|married)\b"),  # "we're not together any more"
    compile_rule(rf"\bI {_SOON}got divorced(?: from {_WHO})?{_DONE}"),  # "I got divorced"
    compile_rule(rf"\bI(?:['’]ve| have)? {_SOON}divorced {_WHO}{_DONE}"),  # "I divorced Sam"
    compile_rule(rf"{_WHO} (?:broke up with|dumped|divorced) me{_DONE}"),  # "Sam dumped me"
    compile_rule(r"\bI(?:['’]m| am) (?:newly single|single again)\b"),
]
_NONE_NOW = [  # no holder now: "I don't have a therapist any more", "I no longer have a boss"
    compile_rule(rf"\bI (?:don['’]t|do not) have an? {_ROLE} {_NO_MORE}"),
    compile_rule(rf"\bI no longer have an? {_ROLE}"),
]
_GATE = re.compile(r"no longer|any ?more|any longer|broke|broken|split|separated|divorc|dumped|single", re.I)
_HOPED = re.compile(
    r"\b(?:hope|hoping|wish|pray|afraid|fear|worried|dream|pretend|imagine)\b[\w ,'’]{0,20}$", re.I
)
_SENTENCE_END = re.compile(r"[.!?\n]")


def ended_relations(text: str) -> list[ExtractedFact]:
    """The speaker's relations a turn says have ended, in the order said: ``ends`` facts of the relation's
    key, valued by the holder named (a role one holds alone), the relation (one with many), or nothing (the
    current holder: "we broke up")."""
    if _GATE.search(text) is None:
        return []
    found: dict[str, ExtractedFact] = {}
    for pattern in (*_NAMED, *_PARTNER_ENDS, *_NONE_NOW):
        for m in pattern.finditer(text):
            if (ended := _ended(pattern, m)) is None or not _stated(text, (ended[2], m.end())):
                continue
            key, value, start = ended
            found.setdefault(
                key, ExtractedFact(key, value, FactType.PROFILE, ends=True, span=(start, m.end()))
            )
    return sorted(found.values(), key=lambda f: (f.span or (0, 0))[0])


def _ended(pattern: re.Pattern[str], m: re.Match[str]) -> tuple[str, str, int] | None:
    """The key and value a match ends and where its statement starts, or None where its name is no
    person's."""
    said, start = m.groupdict(), m.start()
    name = _name(said["name"]) if said.get("name") else ""
    if name is None and " " in said["name"]:  # "If Tom isn't ...", "Honestly Tom ...": the name after it
        first, rest = said["name"].split(" ", 1)
        name = _name(rest)
        if m.start("name") == start:
            start += len(first) + 1
    if name is None:
        return None
    word = (said.get("rel") or "").lower()
    role = "partner" if pattern in _PARTNER_ENDS else _TOGETHER.get(word) or _ROLE_OF.get(word)
    if role is not None:
        return role, name, start
    if not name:
        return None
    relation = _PLURAL.get(word, word)
    return f"person:{name}", _MANY_AS.get(relation, relation), start


def _stated(text: str, span: tuple[int, int]) -> bool:
    """Whether the ending at ``span`` is said as a fact: not supposed, asked or hoped."""
    if supposed(text, span) or _HOPED.search(text, max(0, span[0] - 40), span[0]) is not None:
        return False
    stop = _SENTENCE_END.search(text, span[1])
    return stop is None or stop.group() != "?"


def said_of_people(text: str) -> list[ExtractedFact]:
    """The speaker's relations a turn states (:func:`graphmem.model.relations.relations`) and ends
    (:func:`ended_relations`), in the order said: a relation stated inside an ending is the one ended ("I
    broke up with my boyfriend Sam"), and an unnamed ending beside a value the turn states of its key leaves
    it ("We broke up. My new girlfriend is Leah": Leah supersedes whoever it was)."""
    ended = ended_relations(text)
    stated = [f for f in relations(text) if not any(_inside(f, e) for e in ended)]
    ended = [e for e in ended if e.value or all(f.key != e.key for f in stated)]
    return sorted([*stated, *ended], key=lambda f: (f.span or (0, 0))[0])


def _inside(stated: ExtractedFact, ending: ExtractedFact) -> bool:
    (a, b), (c, d) = stated.span or (0, 0), ending.span or (0, 0)
    return stated.key == ending.key and a < d and c < b
