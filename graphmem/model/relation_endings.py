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
and I break up?", "Wait, Tom isn't my boss any more?"), not hoped ("I wish Tom wasn't ..."), not believed,
guessed or heard ("Sam thinks we broke up", "Maybe we broke up", "Mom says Tom isn't my boss any more"), not
taken back ("We broke up in 2019 but got back together"), not someone else's ("Ana broke up with Sam", "Tom
isn't her boss any more"), not ahead ("Tom won't be my boss after March"), and not a former relation merely
named ("my ex Sam" states no change). "We split up" ends whoever the partner is, so it is read only where
nothing says people parted for an hour ("We split up after lunch and met at the car")."""

from __future__ import annotations

import re

from graphmem.model.extracted import ExtractedFact
from graphmem.model.pattern_pieces import MONTH_NAME, compile_rule
from graphmem.model.planned import supposed
from graphmem.model.relations import _MANY, _MANY_AS, _MOD, _PERSON, _ROLE_OF, _name, relations
from graphmem.models import FactType

__all__ = ["ended_relations", "said_of_people"]

# the words of relations.py's relations with many that name family: kin does not end by being said to ("Ana
# isn't my sister any more" tells of a rift), so only the others end (friends, colleagues, neighbours, mates)
_KIN_MANY = frozenset(
    (
        "sister", "brother", "son", "daughter", "kid", "child", "cousin", "aunt", "auntie", "uncle", "niece",
        "nephew", "grandma", "grandmother", "granny", "nan", "nana", "grandpa", "grandfather", "grandad",
        "granddad", "granddaughter", "grandson", "grandchild", "grandkid", "grandparent", "grandparents",
        "grandchildren",
    )
)  # fmt: skip
_KIN_PARTS = re.compile(r"^(?:step|half-|god)|[- ]in[- ]law$")  # "stepdad", "half-sister", "godson", in-laws


def _kin(word: str) -> bool:
    return word in _KIN_MANY or _KIN_PARTS.search(word) is not None


_ENDS_MANY = tuple(w for w in _MANY if not _kin(w))  # and the plural "Ana and I" says
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
_PLURAL = {  # "Ana and I aren't friends any more", "... besties any more", "... buddies any more"
    (f"{w[:-1]}ies" if w.endswith("y") and w[-2:-1] not in "aeiou" else f"{w}s"): w for w in _ENDS_MANY
}
_PAIR = rf"(?P<rel>(?i:{_words([*_TOGETHER, *_PLURAL])}))\b"
# where a parting ends its clause, or a time follows ("we broke up last month"; not "we split up the bill",
# "we broke up for the summer", "Sam dumped me at the station"); "and", "but", "so" only after "broke up"
_AGO = r"(?:[\w-]+ ){1,4}ago"  # "years ago", "two years ago", "a couple of years ago"
_TIME = rf"last|this|in|on|after|recently|yesterday|today|earlier|{_AGO}"
_TERM = (
    r"(?![^.!?\n]*\bfor (?:the )?(?:holidays?|summer|christmas|term))"  # a school's: "broke up for summer"
)
_DONE = rf"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:{_TIME})\b){_TERM}"
_AND = r"(?=\s+(?:and|but|so|because)\b)"
_BROKE_DONE = rf"(?:{_DONE}|{_AND})"
# a parting of "we" (or "my wife and I") ends whoever the partner is, so it takes less: not a time where
# people part for an hour ("We split up after lunch", "in the museum", "this morning to cover more ground"),
# only a clause's end or a time that points back ("last year", "years ago", "in 2019"; "today" at the end)
_BACK = rf"last|yesterday|recently|earlier|{_AGO}|in (?:19|20)\d\d|in (?i:{MONTH_NAME})"
_ENDED = r"(?=\s*(?:[.,;:!?)\n]|$))"
_WE_DONE = rf"(?:{_ENDED}|(?=\s+(?:{_BACK})\b)|(?=\s+(?:today|this \w+)\s*(?:[.!?\n]|$))){_TERM}"
_SOON = r"(?:just |finally |officially )?"
_HAVE = r"(?:['’]ve| have)"
_BROKE = rf"(?: {_SOON}broke up|{_HAVE} {_SOON}broken up)"  # (with its leading space, as below)
_SPLIT = rf"(?: {_SOON}(?:split up|separated|divorced|got divorced)|{_HAVE} {_SOON}(?:split up|separated))"
_PARTED = rf"(?:{_BROKE}{_BROKE_DONE}|{_SPLIT}{_DONE})"
_WE_PARTED = rf"(?:{_BROKE}(?:{_WE_DONE}|{_AND})|{_SPLIT}{_WE_DONE})"
_NOT_THEIRS = r"(?!\s+and\s+[A-Z][^\W\d_]*['’]s\b)"  # not "I broke up with Sam and Alex's group chat"
_PAIRED = r"(?<!\band )"  # "I", not "my ex-wife and I" (whose rule is its own)
_UP_WITH = rf"(?: {_SOON}(?:broke|split) up|{_HAVE} {_SOON}(?:broken|split) up) with"
_SUBJECT = rf"(?<![\w'’-]){_PERSON}"  # "Tom's not my boss": the name before "'s"
_NAMED: list[re.Pattern[str]] = [  # a name and the relation word
    compile_rule(rf"{_SUBJECT}(?: isn['’]t| is not|['’]s not) my {_MOD}{_REL} {_NO_MORE}"),
    compile_rule(rf"{_SUBJECT}(?: is|['’]s) no longer my {_MOD}{_REL}"),  # "Tom is no longer my manager"
    compile_rule(rf"\b[Mm]y {_MOD}{_REL} {_ISNT} {_WHO} {_NO_MORE}"),  # "my boss isn't Tom any more"
    compile_rule(rf"\b[Mm]y {_MOD}{_REL} {_NO_LONGER} {_WHO}"),  # "my boss is no longer Tom"
    compile_rule(rf"{_WHO} and I{_NOT_TOGETHER} {_PAIR}"),  # "Sam and I aren't together any more"
]
# the partner word right before the name: a name no faker locale gives is read there ("my wife Efua")
_NAMED_AFTER: list[re.Pattern[str]] = [
    # "I broke up with my boyfriend (Sam)"
    compile_rule(rf"\bI{_UP_WITH} my {_MOD}{_PARTNER}(?:,? {_WHO})?{_NOT_THEIRS}{_BROKE_DONE}"),
    # "My wife (Efua) and I got divorced" (not "my ex-wife": "ex" is no current partner, nor in _MOD)
    compile_rule(rf"\b[Mm]y {_MOD}{_PARTNER}(?:,? {_WHO},?)? and I{_WE_PARTED}"),
]
_PARTNER_ENDS: list[re.Pattern[str]] = [  # the partner, named or not
    *_NAMED_AFTER,
    compile_rule(rf"\bI{_UP_WITH} (?:{_WHO}|(?:him|her|them)\b){_NOT_THEIRS}{_BROKE_DONE}"),  # "... with Sam"
    compile_rule(rf"{_WHO} and I{_PARTED}"),  # "Sam and I split up"
    compile_rule(rf"\b[Mm]e and {_WHO}{_PARTED}"),  # "me and Sam broke up"
    compile_rule(rf"\b[Ww]e{_WE_PARTED}"),  # "we broke up", "we separated"
    compile_rule(rf"\b[Ww]e{_NOT_TOGETHER} (?:together|a couple|married)\b"),  # "we're not together any more"
    compile_rule(rf"{_PAIRED}\bI {_SOON}got divorced(?: from {_WHO})?{_DONE}"),  # "I got divorced"
    compile_rule(rf"{_PAIRED}\bI(?:['’]ve| have)? {_SOON}divorced {_WHO}{_DONE}"),  # "I divorced Sam"
    compile_rule(rf"{_WHO} (?:broke up with|divorced) me{_BROKE_DONE}"),  # "Sam divorced me and ..."
    compile_rule(rf"{_WHO} dumped me{_DONE}"),  # "Sam dumped me" (not "... at the station")
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
# believed, guessed or heard, in the clause before the ending: "Sam thinks we broke up", "Maybe we broke up",
# "Mom says Tom isn't my boss any more" (not "I thought so, and we broke up": a clause between)
_BELIEVED = re.compile(
    r"\b(?:think|thinks|thought|guess|guessing|maybe|perhaps|probably|apparently|supposedly|feels? like|"
    r"felt like|seems?|seemed|says|(?<![Aa]s I )(?<![Ll]ike I )said|saying|told (?:me|us)|heard|hear|"
    r"rumou?r(?:s|ed)?)\b(?:(?![.!?;:\n,]|\b(?:and|but|so|because)\b).)*$",
    re.I,
)
# taken back after it in its sentence: "We broke up in 2019 but got back together", "..., but we didn't."
_UNDONE = re.compile(  # bounded gaps: a long sentence of many "but"s stays linear (the review of round 63)
    r"[^.!?\n]{0,80}?\bbut\b[^.!?\n]{0,60}?(?:\bback together\b|\bnot really\b|"
    r"\b(?:didn['’]t|did not)(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:really|actually)\b))",
    re.I,
)
_SENTENCE_END = re.compile(r"[.!?\n]")


def ended_relations(text: str) -> list[ExtractedFact]:
    """The speaker's relations a turn says have ended, in the order said: ``ends`` facts of the relation's
    key, valued by the holder named (a role one holds alone), the relation (one with many), or nothing (the
    current holder: "we broke up")."""
    if not isinstance(text, str) or _GATE.search(text) is None:
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
    name = _name(said["name"], loose=pattern in _NAMED_AFTER) if said.get("name") else ""
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
    """Whether the ending at ``span`` is said as a fact: not supposed, asked, hoped, believed or heard, and
    not taken back ("..., but we got back together")."""
    if supposed(text, span) or _HOPED.search(text, max(0, span[0] - 40), span[0]) is not None:
        return False
    stop = _SENTENCE_END.search(text, span[1])
    sentence_end = stop.start() if stop else len(text)
    if _BELIEVED.search(text, max(0, span[0] - 60), span[0]) or _UNDONE.match(text, span[1], sentence_end):
        return False
    return stop is None or stop.group() != "?"


def said_of_people(text: str) -> list[ExtractedFact]:
    """The speaker's relations a turn states (:func:`graphmem.model.relations.relations`) and ends
    (:func:`ended_relations`), in the order said: a relation stated inside an ending is the one ended ("I
    broke up with my boyfriend Sam"), and an unnamed ending beside a value the turn states of its key leaves
    it ("We broke up. My new girlfriend is Leah": Leah supersedes whoever it was)."""
    if not isinstance(text, str):
        return []
    ended = ended_relations(text)
    stated = [f for f in relations(text) if not any(_inside(f, e) for e in ended)]
    ended = [e for e in ended if e.value or all(f.key != e.key for f in stated)]
    return sorted([*stated, *ended], key=lambda f: (f.span or (0, 0))[0])


def _inside(stated: ExtractedFact, ending: ExtractedFact) -> bool:
    (a, b), (c, d) = stated.span or (0, 0), ending.span or (0, 0)
    return stated.key == ending.key and a <= d and c <= b  # inside, overlapping or touching it
