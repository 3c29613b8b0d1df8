"""Where one lives and works, said in the words people use beside "I live in" and "I work at" (pure): "I'm a
UX designer at Figma", "I'm contracting for Network Rail", "I'm at Miro now", "Home is Leipzig", "I'm in
Sacramento, CA.", "I've been in Salt Lake City since June", "Moved back home to Swansea". Each pattern's value
must pass its check: a place people live in (:func:`graphmem.model.places.is_place`) or an organisation's name
(:func:`graphmem.model.people.is_organisation`), since the same words carry a trip ("I'm in Paris for the
weekend" is stopped by its words, "I'm in a meeting" by the check) or a friend ("I'm at Sarah's now").
:func:`graphmem.model.fact_patterns.extract` searches them with its own patterns."""

from __future__ import annotations

import re
from collections.abc import Callable

from graphmem.model.pattern_pieces import (
    END,
    FIRM_NAME,
    FOR_A_WHILE,
    HOUSEHOLD,
    MOVE_TO,
    NAMED_PLACE,
    PLACE_END,
    SPEAKER,
)
from graphmem.model.people import is_organisation
from graphmem.model.places import is_place

__all__ = ["CHECKS", "GATE", "PATTERNS", "WORDS", "an_organisation"]

_I_AM = r"\bI(?:'m| am)(?: now| currently| still| actually)?"
_WE_ARE = rf"{HOUSEHOLD}(?:'re| are)(?: now| currently| still)?"
# what one is at a place that is no job there: "I'm a regular at the Crown", "a student at UCL"
_NOT_A_JOB = (
    r"(?!(?:big |huge |massive |life-long |lifelong |long-time |season ticket )?"
    r"(?:student|pupil|member|regular|"
    r"customer|client|patient|guest|visitor|fan|subscriber|tourist|volunteer|season ticket holder|"
    r"shareholder|investor|friend)s?\b)"
)
# a word of work in the sentence: "I'm at Miro now, made the switch in October" (not "I'm at Tesco now, want
# anything?")
_WORK_WORDS = (
    r"(?=[^.!?\n]*\b(?:job|work|working|role|team|switch|switched|joined|started|hired|hours|colleagues|boss|"
    r"manager|position|contract|salary|pay|office|shifts?|private|left|moved on|went)\b)"
)
# a place stated as where one is, not where one is for a while: not "I'm in Paris!", "I'm in London for the
# weekend", "... until Friday", "... this week", "I'm in Paris visiting my aunt", "I'm in Leeds with work"
_STAYING = (
    r"(?!\s*!|\s+(?:for|until|till|on|this|today|tonight|tomorrow|with|during|visiting|"
    r"at the (?:airport|station|"
    r"hospital|office)|right now|again|overnight)\b)"
)
# "since June", "since 2019", "since the summer", "since college", "for two years" (not "since Monday", "since
# 9am", "since last week", "since the conference": a day's or a week's stay is a trip's)
_A_WHILE_LIVED = (
    r"(?=\s+(?:since (?:(?i:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|(?:the |last )?(?:spring|summer|autumn|fall|winter)|last (?:year|month)|(?:19|20)\d\d|college|"
    r"uni|university|school|childhood|birth|I was|we were|then)\b)|"
    r"for (?:about |almost |nearly |over |more than )?(?:a|an|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+) (?:years?|months?)\b))"
)
_LIVED = r"(?:moved|moving|relocated|relocating|upped sticks|emigrated)"

PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # "I'm a UX designer at Figma", "I'm an engineer at Arm", "I'm a solicitor at Slaughter and May"
    (
        re.compile(rf"{_I_AM} an? {_NOT_A_JOB}(?:[\w-]+ ){{0,3}}?[\w-]+ (?:at|for|with)\s+{FIRM_NAME}{END}"),
        "employer",
    ),
    # "I'm on a contract at Pfizer", "I'm contracting for Network Rail now", "freelancing for the BBC"
    (
        re.compile(
            rf"{_I_AM} (?:on an? (?:\w+ )?contract (?:at|with|for)|(?:contracting|freelancing|consulting) "
            rf"(?:at|for|with))\s+{FIRM_NAME}{END}"
        ),
        "employer",
    ),
    # "I'm at Miro now, made the switch in October"
    (re.compile(rf"{_WORK_WORDS}{_I_AM} at\s+{FIRM_NAME}(?= now\b)"), "employer"),
    # "I'm in Sacramento, CA.", "We're in Adelaide at the moment but ..."
    (re.compile(rf"(?:{_I_AM}|{_WE_ARE}) (?:based )?in\s+{NAMED_PLACE}{PLACE_END}{_STAYING}"), "location"),
    # "Home is Leipzig at the moment", "Hastings is home", "home is now Bristol"
    (
        re.compile(
            rf"(?:^|[.!?,;]\s+|\b(?:and|but|so) )(?:[Hh]ome|[Oo]ur home|[Mm]y home) (?:is|'s) (?:now )?"
            rf"{NAMED_PLACE}{PLACE_END}"
        ),
        "location",
    ),
    (
        re.compile(
            rf"(?:^|[.!?,;]\s+|\b(?:and|but|so) ){NAMED_PLACE} is (?:now )?(?:my |our )?home\b"
            r"(?! (?:to|of|for)\b)"
        ),
        "location",
    ),
    # "I've been in Salt Lake City since June", "we've been in Leeds for two years"
    (
        re.compile(rf"\b(?:I|[Ww]e)(?:'ve| have) been (?:living |based )?in\s+{NAMED_PLACE}{_A_WHILE_LIVED}"),
        "location",
    ),
    # "I finally moved in with my girlfriend in Warwick"
    (
        re.compile(rf"{SPEAKER} {_LIVED} in with [^.,;!?\n]{{2,40}}? in\s+{NAMED_PLACE}{PLACE_END}"),
        "location",
    ),
    # "We've just bought a house in Sheffield and moved in last Friday" (bought alone may be to let)
    (
        re.compile(
            r"\b(?:I|[Ww]e)(?:'ve| have)?(?: just| finally)? (?:bought|got the keys to|closed on) "
            r"(?:a|an|our|my) "
            rf"(?:[\w-]+ )?(?:house|flat|home|place|apartment|bungalow|cottage) in\s+{NAMED_PLACE}"
            r"(?=,? and (?:have |'ve )?(?:just |finally )?moved in\b)"
        ),
        "location",
    ),
    # "I left Michigan for Irvine", "... which meant leaving Leeds for Bath": both places
    (
        re.compile(
            rf"(?:{SPEAKER}|\b(?:meant|meaning)) (?:left|leaving|swapped|swapping|traded) "
            rf"(?P<from>[A-Z][\w'-]*"
            rf"(?: [A-Z][\w'-]*)*) for\s+{NAMED_PLACE}{PLACE_END}(?!{FOR_A_WHILE})"
        ),
        "location",
    ),
    # a sentence without its subject: "Moved back home to Swansea last month", "Just relocated to Leeds"
    (
        re.compile(
            r"(?:^|[.!?]\s+)(?:(?:[Jj]ust|[Ff]inally|[Rr]ecently|[Oo]fficially) )?"
            r"(?i:moved|relocated|upped sticks)"
            rf"{MOVE_TO}"
        ),
        "location",
    ),
]


def _from_a_place(value: str, text: str, match: re.Match[str]) -> bool:
    """The move's value is a place, and so is what was left for it."""
    left = match.groupdict().get("from")
    return is_place(value) and (left is None or is_place(left))


def an_organisation(value: str, text: str, match: re.Match[str]) -> bool:
    """The value names an organisation (:func:`graphmem.model.people.is_organisation`)."""
    return is_organisation(value)


# each pattern's check of (value, text, match); the words it needs (lower case) before it is searched
CHECKS: dict[int, Callable[[str, str, re.Match[str]], bool]] = {
    id(p): an_organisation if key == "employer" else _from_a_place for p, key in PATTERNS
}
WORDS: dict[int, re.Pattern[str]] = {
    id(p): re.compile(w)
    for (p, _), w in zip(
        PATTERNS,
        (
            "(?:'m|am) (?:now |currently |still |actually )?an? ",  # as _I_AM
            "contract|freelanc|consult",
            "(?:'m|am) (?:now |currently |still |actually )?at ",
            "(?:'m|'re|am|are) (?:now |currently |still |actually )?(?:based )?in ",
            "home",
            "home",
            "been (?:living |based )?in ",
            "in with",
            "moved in",
            "left|leaving|swap|trad",
            "moved|relocated|upped",
        ),
        strict=True,
    )
}
GATE = re.compile("|".join(f"(?:{w.pattern})" for w in WORDS.values()))  # any of them
