"""A fact as a turn's patterns state it, before it is planned (pure): :class:`ExtractedFact`, and how a
value is read (:func:`clean`) and checked for its key (:func:`fits`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TypedDict

from graphmem.model.dates import MONTHS, WEEKDAYS
from graphmem.model.pattern_pieces import A_TIME, NO_EMPLOYER
from graphmem.model.people import RELATIVES
from graphmem.models import FactType

__all__ = ["VAGUE", "ExtractedFact", "clean", "fits", "memory_type_hint", "standing", "with_subject"]

VAGUE = frozenset({"it", "that", "this", "them", "you", "to", "so", "a lot", "idea", "the idea", "that idea"})


# What cannot begin a standing preference's object or a rule's instruction (closed word classes, not a
# vocabulary): a clause ("I love how it shows", "when you try", "the way it turned out"), the listener's
# thing ("I love your turtles": a compliment), an auxiliary ("something I love is awesome"); a rule is an
# imperative ("Always use metric units"), never a place adverb or an auxiliary ("Always here to help",
# "Never had a chance": the subject left out)
# (lower case only: a capitalised word inside a sentence is a name or a title, "I love Will Ferrell movies",
# "When Harry Met Sally"; "be" is an imperative, "Always be concise")
_CLAUSE = re.compile(
    r"(?:how|what|whatever|when|whenever|where|why|if|whether|way|that (?=(?:I|you|he|she|it|we|they)\b)"
    r"|your|yours|is|are|was|were|am|be|been|has|had|does|did|will|would|can|could)\b"
)
_NOT_IMPERATIVE = re.compile(r"(?:here|there|is|are|was|were|am|been|has|had|does|did)\b")
# "I love" inside a relative clause: "what I like to hear", "doing something I love": what follows is not
# what the speaker loves
_RELATIVE = re.compile(r"(?i:\b(?:what|whatever|something|anything|everything|nothing)\s+)$")


def standing(rule: bool, obj: str, before: str) -> bool:
    """Whether ``obj``, as a preference pattern (or a rule's, ``rule``) read it after the text ``before``, is
    a standing object: not vague, at most six words, not a clause, a compliment or an auxiliary, and said in
    the sentence's own clause (not a relative one); a rule's, an instruction."""
    words = obj.split()
    if not words or obj.lower() in VAGUE or len(words) > 6:
        return False
    if rule:
        return _NOT_IMPERATIVE.match(obj) is None
    return _CLAUSE.match(obj) is None and _RELATIVE.search(before[-60:]) is None


def fits(key: str, value: str) -> bool:
    """Whether ``value`` can be ``key``'s: not vague ("it"), at most six words, a place without digits
    ("Python 3", "Table 5"), an employer not a time or a where ("9 tomorrow", "home")."""
    if value.lower() in VAGUE or len(value.split()) > 6:
        return False
    if key == "location":
        return not any(c.isdigit() for c in value)
    if key != "employer":
        return True
    lowered = value.lower()  # also a where with more words: "home mostly" (not "Home Depot")
    where = lowered in NO_EMPLOYER or (value[:1].islower() and lowered.split(" ", 1)[0] in NO_EMPLOYER)
    relative = lowered in RELATIVES  # a person, not a firm: "a job with Dad" (but "Mother Earth Brewing")
    day = lowered in MONTHS or lowered in WEEKDAYS or lowered.removesuffix("s") in WEEKDAYS  # "Saturdays"
    return not (where or relative or day or A_TIME.fullmatch(value))


@dataclass(frozen=True)
class ExtractedFact:
    key: str
    value: str
    fact_type: FactType
    ends: bool = False  # "no longer": the value stated ends (see FactInput.ends)
    planned: bool = field(default=False, compare=False)  # stated in the future tense: a fact only with a date
    # stated in the progressive ("I'm moving to York in March"): a bare month or weekday of its clause is the
    # coming one (graphmem.model.planned); without a date it holds from when it was said
    ahead: bool = field(default=False, compare=False)
    withdraws: bool = False  # "I'm not moving to Oslo after all": the key's pending plan is off (FactInput)
    # "the move got pushed back to June" (with ``withdraws``): planned again from the date said after the verb
    # (graphmem.model.planned.moved_start; called off when none is said)
    put_off: bool = False
    stays: bool = False  # "I ended up staying in Leeds" (with ``withdraws``): see FactInput.stays
    holds: bool = False  # "still in Geneva till then": held until a pending plan starts (FactInput.holds)
    corrects: str | None = None  # "Sorry, I meant Leeds, not Leicester": the value named wrong (FactInput)
    replans: bool = False  # with ``corrects``: a pending plan's value only ("going to X instead of Y")
    subject: str | None = None  # someone other than the speaker ("Emma lives in Lisbon"): keyed under them
    # where in the turn it was stated (graphmem.model.planned.fact_start reads its clause); not its identity
    span: tuple[int, int] | None = field(default=None, compare=False)

    def changes(self) -> Changes:
        """What the fact changes beside its value, as :class:`graphmem.model.facts.FactInput` takes it."""
        return Changes(
            ends=self.ends,
            withdraws=self.withdraws,
            stays=self.stays,
            holds=self.holds,
            corrects=self.corrects,
            replans=self.replans,
        )


class Changes(TypedDict):
    """The flags of :class:`ExtractedFact` a fact input carries (:class:`graphmem.model.facts.FactInput`)."""

    ends: bool
    withdraws: bool
    stays: bool
    holds: bool
    corrects: str | None
    replans: bool


def clean(obj: str) -> str:
    """A value as said, without a leading article or "my" and a trailing "too", "a lot", "actually", "lol",
    "btw"."""
    obj = re.sub(r"^(?:the|a|an|my)\s+", "", obj.strip(), flags=re.IGNORECASE)
    return _TRAILING.sub("", obj).strip()


_TRAILING = re.compile(
    r"(?:\s+(?:too|as well|a lot|so much|very much|actually|lol|lmao|haha|though|tho|anyway|these days|again|"
    r"btw|tbh|ngl|fyi|rn|atm|now))+$"
)


def memory_type_hint(extracted: list[ExtractedFact]) -> str | None:
    """A memory stating a preference is a preference memory; a rule is procedural; a profile fact semantic."""
    kinds = {f.fact_type for f in extracted}
    if FactType.PREFERENCE in kinds:
        return "preference"
    if FactType.RULE in kinds:
        return "procedural"
    if FactType.PROFILE in kinds:
        return "semantic"
    return None


def with_subject(fact: ExtractedFact, subject: str | None) -> ExtractedFact:
    """Key a fact under whom it is about: someone the speaker named (``Emma/location``), else the speaker when
    a conversation names its speakers (``Caroline/location``)."""
    who = fact.subject or subject
    return fact if not who else replace(fact, key=f"{who}/{fact.key}")
