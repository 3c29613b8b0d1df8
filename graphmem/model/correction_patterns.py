"""Corrections in the words people use beside "I meant X, not Y" (pure; called by
:func:`graphmem.model.fact_changes.corrections`): a slip owned with the right value alone ("I said that wrong,
it's Commerzbank"), the value said before set against the right one ("I said Wellington but we're actually in
Palmerston North", "I said Rome, I meant Paris", "not Leeds, Bradford") and a plan's date corrected ("the
move is 21 January, not the 12th"). What a correction does is
:func:`graphmem.model.fact_endings.plan_correction`'s; a date corrected is a put-off
(:func:`graphmem.model.fact_endings.plan_withdraw`, its date read by
:func:`graphmem.model.planned.moved_start`)."""

from __future__ import annotations

import re

from graphmem.model.dates import MONTHS, WEEKDAYS
from graphmem.model.extracted import ExtractedFact
from graphmem.model.fact_versions import SAID_WRONG
from graphmem.model.pattern_pieces import compile_rule
from graphmem.model.people import is_organisation
from graphmem.model.places import is_place
from graphmem.models import FactType

__all__ = ["said_corrections"]

Found = dict[tuple[FactType, str], ExtractedFact]
# the words every pattern below holds (lower case): a turn without one is not searched
_WORDS = compile_rule(
    r"wrong|misspo|mistyp|mistake|my bad|typo|scratch that|\bsaid\b|wrote|typed|told you|mentioned|\bput\b|"
    r"correction|not "
)
# the words each kind needs beside those (lower case): a slip owned, a value said before, a date corrected
_SLIP_WORDS = compile_rule(r"wrong|misspo|mistyp|mistake|my bad|typo|scratch that")
_SAID_WORDS = compile_rule(r"\bi (?:said|wrote|typed|put|told you|mentioned)\b")
_DATE_WORDS = compile_rule(r"\b(?:move|relocation|moving date|start(?:ing)? date)\b[^.!?\n]*\bnot\b")
# a name as written: "Commerzbank", "Palmerston North", "Deutsche Bank" (not "It", "The")
_NAME = r"(?!(?:I|They|He|She|It|We|You|The|This|That|Sorry|Oops)\b)[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,3}"
_AT = r"(?:in |at |to |for |with )?"
# where the right value's phrase ends: the sentence, a comma, or a conjunction ("it's Commerzbank. ...")
_ENDS = r"(?=\s*(?:[.!?;,)\n]|$)|\s+(?:and|but|so|not)\b)"
# a slip owned, the right value alone: "I said that wrong, it's Commerzbank", "my mistake - it's Ocado",
# "typo, it should be Leith", "Scratch that, I meant Bupa" (not "my bad, it's Tuesday": the value fits no key;
# nor "my bad, I'm at Tesco, be there soon": being somewhere is a correction only "actually")
_SLIP = compile_rule(
    r"\b(?:I (?:said|got|wrote|typed|put|had) (?:that|it|this) wrong|I misspoke|I mistyped|"
    r"[Mm]y (?:mistake|bad)|[Tt]ypo|[Ss]cratch that|(?:that|it) was (?:a typo|wrong|a mistake))\b"
    r"[,.;:!]?(?:\s*-+)?\s+"
    r"(?:it's|it is|it should be|should be|it should've been|I meant|I mean|I actually meant|"
    r"I(?:'m| am) actually (?:in|at|with)|we(?:'re| are) actually in)\s+"
    rf"{_AT}(?:the )?(?P<obj>{_NAME}){_ENDS}"
)
# the value said before against the right one: "Sorry, earlier I said Wellington but we're actually in
# Palmerston North", "I said Rome, I meant Paris", "I wrote Boston?? I meant Austin", "I said I live in Lyon
# but it's actually Villeurbanne", "I told you Acme but I actually work at Initech" (not "I said hi to Tom,
# it's his birthday", "I said Rome but I'm in Paris for the weekend": "actually" or "meant")
_SAID_BUT = compile_rule(
    r"\bI (?:said|wrote|typed|put|told you|mentioned)(?: earlier| before)?(?: that)?"
    r"(?: (?:I|we) (?:live|work|am|'m|are|'re|was|were)(?: based)? (?:in|at|for))? (?:the )?"
    rf"(?P<wrong>{_NAME})"
    r"(?: earlier| before)?(?:,? but|[,.!?]+) (?:I meant|I mean|I actually meant|"
    r"(?:I(?:'m| am)|we(?:'re| are)|it(?:'s| is)) actually|I actually (?:live|work)|we actually live|"
    r"(?:I|we) (?:live|work) actually)\s+"
    rf"{_AT}(?:the )?(?P<obj>{_NAME}){_ENDS}"
)
# the right value after the one said, in a correcting turn: "Sorry - not Leeds, Bradford." (the right one
# ends its sentence: not "not Monday, Tuesday works better for the dentist")
_NOT_THIS = compile_rule(
    rf"(?:^|[.!?,;:-]\s*)[Nn]ot (?:the )?(?P<wrong>{_NAME}),? (?:the )?(?P<obj>{_NAME})(?=\s*(?:[.!?\n]|$))"
)
_CORRECTING = compile_rule(r"\b(?:sorry|oops|correction|typo|meant|mistake|my bad|wrong|said)\b", re.I)
# the wrong value named apart: "Deutsche Bank was my old job", "Wellington is where my parents live"
_OLD = compile_rule(
    rf"(?P<wrong>{_NAME}) (?:was|is) (?:my (?:old|previous|last|former) "
    r"(?:job|employer|company|work(?:place)?|place|home|town|city)|where I used to (?:work|live)|"
    r"where my (?:\w+ ){0,2}(?:live|lives|work|works))\b"
)
# a date's first word: a day of the month, a month, a weekday, "next week" (not "maybe", "100%", "months off",
# "next level")
_DATE = (
    r"(?:\d{1,2}(?:st|nd|rd|th)?\b(?!%)|(?i:(?:"
    + "|".join(MONTHS + [m[:3] for m in MONTHS] + WEEKDAYS)
    + r")\b|next (?:week|month|year|"
    + "|".join(WEEKDAYS)
    + r")\b))"
)
# a plan's date corrected alone, the wrong one after "not": "correction: the move is 21 January, not the
# 12th", "sorry, my start date is the 3rd of May, not the 5th" (the new date is read after the verb)
_REDATED = [
    (
        compile_rule(
            r"\b(?:the|my|our) (?:move|relocation|moving date|move date)"
            r"(?: to [A-Z][\w'-]*(?: [A-Z][\w'-]*)?)? "
            rf"(?:is|'s|will be|should be|was)(?= (?:on |in )?(?:the )?{_DATE}[^.!?;\n]{{0,30}}?,? not\b)",
            re.I,
        ),
        "location",
    ),
    (
        compile_rule(
            r"\b(?:my|the) start(?:ing)? date(?: (?:at|with) [A-Z][\w&'-]*(?: [A-Z][\w&'-]*)?)? "
            rf"(?:is|'s|will be|should be|was)(?= (?:on |in )?(?:the )?{_DATE}[^.!?;\n]{{0,30}}?,? not\b)",
            re.I,
        ),
        "employer",
    ),
]
_DAY_WORDS = frozenset(m.casefold() for m in MONTHS) | frozenset(WEEKDAYS) | {"today", "tomorrow"}


# what a slip corrected with no wrong value named must speak of, to be a home's or a job's: "My bad, it's
# Zoom." corrects nothing, "My bad, I work at Lidl, not Aldi" names its wrong value anyway; a bare "I
# misspoke, I meant Lidl." is read only with such a word (it would replace the value held, whatever it was)
_KEY_WORDS = {
    "location": compile_rule(
        r"\b(?:live|living|lived|home|moved|move|based|flat|house|apartment|town|city)\b", re.I
    ),
    "employer": compile_rule(r"\b(?:work|working|job|employer|company|firm|office|role|boss|team)\b", re.I),
}


def _keys(value: str) -> list[str]:
    """The keys ``value`` can be: the location for a place, the employer for an organisation, none for a
    day."""
    if value.casefold() in _DAY_WORDS:
        return []
    return ["location"] if is_place(value) else ["employer"] if is_organisation(value) else []


def said_corrections(text: str, out: Found) -> None:
    """The corrections said in other words than "I meant X, not Y", each of the key its right value fits:
    the wrong value named (or, naming none, the key's current one: ``SAID_WRONG``); a plan's date corrected
    as a put-off of the key's pending plan to the date said."""
    lower = text.lower()
    if _WORDS.search(lower) is None:
        return
    kinds = ((_SLIP, _SLIP_WORDS), (_SAID_BUT, _SAID_WORDS))
    found = [m for pattern, words in kinds if words.search(lower) for m in pattern.finditer(text)]
    if "not " in lower and _CORRECTING.search(text):
        found += list(_NOT_THIS.finditer(text))
    old = _OLD.search(text) if found else None
    for m in found:
        wrong = m.groupdict().get("wrong") or (old["wrong"] if old else SAID_WRONG)
        for key in _keys(m["obj"]):
            if wrong == SAID_WRONG and _KEY_WORDS[key].search(text) is None:
                continue  # "sorry my mistake, it's Zoom not Teams for the call": no home's or job's words
            fixed = ExtractedFact(key, m["obj"], FactType.PROFILE, corrects=wrong, span=m.span())
            out.setdefault((FactType.PROFILE, f"{key}@corrects"), fixed)
    for pattern, key in _REDATED if _DATE_WORDS.search(lower) else ():
        for m in pattern.finditer(text):
            out.setdefault(
                (FactType.PROFILE, f"{key}@put_off"),
                ExtractedFact(
                    key, "", FactType.PROFILE, withdraws=True, put_off=True, planned=True, span=m.span()
                ),
            )
