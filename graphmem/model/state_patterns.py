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
from graphmem.model.people import is_employer, is_organisation
from graphmem.model.places import is_place

__all__ = ["CHECKS", "GATE", "PATTERNS", "WORDS", "an_employer", "an_organisation"]

_I_AM = r"\bI(?:'m| am)(?: now| currently| still| actually)?"
_WE_ARE = rf"{HOUSEHOLD}(?:'re| are)(?: now| currently| still)?"
# what one is at a place that is no job there: "I'm a regular at the Crown", "a mature student at UCL", "a
# loyal customer at Tesco", "a Prime member with Amazon", "a whizz at Excel", "a sucker for Lush" (the role's
# last word, before "at"); nor a degree, a while or a past before it: "a bit annoyed with Vodafone", "a
# little late for Zumba", "a day behind with Duolingo", "a former engineer at Google"
_NOT_A_JOB = (
    r"(?!(?:bit|little|tad|lot|day|week|month|year|hour|minute|few|couple|former|ex|retired|previous|past|"
    r"one-time)[\s-])"
)
_NOT_A_ROLE = (
    r"(?!(?:student|pupil|member|regular|customer|client|\w*patient|guest|visitor|fan|subscriber|tourist|"
    r"volunteer|holder|shareholder|investor|friend|buyer|flyer|passenger|user|candidate|applicant|speaker|"
    r"attendee|delegate|contestant|competitor|participant|witness|juror|kid|sucker|stickler|whizz|pro|expert|"
    r"natural|disaster|nightmare|beginner|novice|genius|wizard|contributor|addict|late|early)s? "
    r"(?:at|for|with)\b)"
)
# a word of work in the sentence: "I'm at Miro now, made the switch in October" (not "I'm at Tesco now, want
# anything?")
_WORK_WORDS = re.compile(  # anywhere in the message
    r"\b(?:job|work|working|role|team|switch|switched|joined|started|hired|hours|colleagues|boss|"
    r"manager|position|contract|salary|(?<!to )pay|office|shifts?|private|moved on|"
    # "left Deloitte in May", "went private" (not "left my list at home", "went for the cheap petrol")
    r"(?i:left) (?=[A-Z]|my (?:old |last )?job)|"
    r"went (?:private|freelance|contract|in-house|part-time|full-time))\b"
)
# a place stated as where one is, not where one is for a while: not "I'm in Paris!", "I'm in London for the
# weekend", "... until Friday", "... this week", "I'm in Paris visiting my aunt", "I'm in Leeds with work",
# "I'm in Florida, visiting my parents", "I'm in Berlin next week", "I'm in Copenhagen in March", "... from
# Thursday", "I'm in Cardiff, just for the day", "I'm in York, back Monday"
_STAYING = (
    r"(?!\s*!|,?\s+(?:for|until|till|on|this|today|tonight|tomorrow|with|during|visiting|next|from|just|back|"
    r"(?i:in (?:january|february|march|april|may|june|july|august|september|october|november|december|"
    r"(?:the )?(?:spring|summer|autumn|fall|winter)))|"
    r"at the (?:airport|station|"
    r"hospital|office)|right now|again|overnight)\b)"
)
# "since June", "since 2019", "since college", "for two years": a month, a season, a year or a time of life
# (not "since Monday", "since yesterday", "since the 3rd", "since 9am", "since last week", "since the
# funeral", "for the weekend")
_SEASON = r"(?:spring|summer|autumn|fall|winter)"
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|"
    r"apr|jun|jul|aug|sept?|oct|nov|dec)"
)
_A_WHILE_LIVED = (
    rf"(?=\s+(?:since (?i:(?:early |mid-?|late )?(?:the )?{_MONTH}\b|(?:the |last )?{_SEASON}\b|\d{{4}}\b|"
    rf"last (?:year|month)\b|the (?:start|beginning|middle|end) of (?:the |last |this )?(?:year|month|"
    rf"{_SEASON}|{_MONTH}|\d{{4}})\b|(?:I|we) (?:was|were|moved|came|got|left|graduated|married)\b|college|"
    r"uni|university|school|graduation|birth|covid|lockdown|the (?:pandemic|lockdown|divorce)\b)|"
    r"for (?:about |almost |nearly |over |more than )?(?:a|an|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+) (?:years?|months?)\b))"
)
# a contract for a service, not for work: "I'm on a phone contract with EE", "a monthly contract with BT"
_NOT_A_SERVICE = (
    r"(?!(?:phone|mobile|broadband|internet|fibre|sim|energy|gas|electricity|tv|data|airtime|gym|monthly|"
    r"annual|yearly|rolling|tariff)\b)"
)
# a home told for someone else: "Home is Hull for Sam" (not "for now", "for the time being")
_NOT_FOR_SOMEONE = r"(?!\s+for\b(?! now\b| the (?:moment|time being)\b))"
# a clause told of someone else's home before it: "For my parents, Dublin is home", "To my dad, Belfast is
# home"
_SOMEONE_ELSES = re.compile(
    r"(?:^|[.!?]\s+)(?:[Ff]or|[Tt]o|[Aa]ccording to) (?:my|our|his|her|their|[A-Z]\w+)\b[^.!?\n]*$"
)
# a journey on the day said, not a move: "I left Leeds for Bath yesterday", "... this morning, back Sunday"
_A_DAYS_TRIP = r",?\s+(?:today|tonight|yesterday|this (?:morning|afternoon|evening))\b"
_LIVED = r"(?:moved|moving|relocated|relocating|upped sticks|emigrated)"


# each pattern's check of (value, text, match), where its words cannot tell
Check = Callable[[str, str, re.Match[str]], bool]


def _a_place(value: str, text: str, match: re.Match[str]) -> bool:
    """The value is a place, and so is what was left for it ("I left Michigan for Irvine")."""
    left = match.groupdict().get("from")
    return is_place(value) and (left is None or is_place(left))


def _a_home(value: str, text: str, match: re.Match[str]) -> bool:
    """A place called home, not someone else's: "For my parents, Dublin is home" (but "To be honest, home is
    Leipzig now")."""
    return is_place(value) and _SOMEONE_ELSES.search(text, 0, match.start() + 1) is None


def _at_work(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation, in a message about work (:data:`_WORK_WORDS`): "Left Deloitte in October, I'm with
    Bendigo Bank now", not "I'm at Tesco now, want anything?"."""
    return is_organisation(value) and _WORK_WORDS.search(text) is not None


def an_organisation(value: str, text: str, match: re.Match[str]) -> bool:
    """The value names an organisation (:func:`graphmem.model.people.is_organisation`)."""
    return is_organisation(value)


def an_employer(value: str, text: str, match: re.Match[str]) -> bool:
    """The value, started at with no role said, names an employer (:func:`graphmem.model.people.is_employer`:
    not "PureGym")."""
    return is_employer(value)


# each pattern, its key, its check and the words it needs (lower case) before it is searched
PATTERNS: list[tuple[re.Pattern[str], str, Check, str]] = [
    # "I'm a UX designer at Figma", "I'm an engineer at Arm", "I'm a solicitor at Slaughter and May"
    (
        re.compile(
            rf"{_I_AM} an? {_NOT_A_JOB}(?:[\w-]+ ){{0,3}}?{_NOT_A_ROLE}[\w-]+ (?:at|for|with)"
            rf"\s+{FIRM_NAME}{END}"
        ),
        "employer",
        an_organisation,
        "(?:'m|am) (?:now |currently |still |actually )?an? ",
    ),
    # "I'm on a contract at Pfizer", "I'm contracting for Network Rail now", "freelancing for the BBC"
    (
        re.compile(
            rf"{_I_AM} (?:on an? (?:{_NOT_A_SERVICE}\w+ )?contract (?:at|with|for)|"
            rf"(?:contracting|freelancing|consulting) (?:at|for|with))\s+{FIRM_NAME}{END}"
        ),
        "employer",
        an_organisation,
        "contract|freelanc|consult",
    ),
    # "I'm at Miro now, made the switch in October", "I'm with Bendigo Bank now doing internal audit"
    (
        re.compile(rf"{_I_AM} (?:at|with)\s+{FIRM_NAME}(?= now\b)"),
        "employer",
        _at_work,
        "(?:'m|am) (?:now |currently |still |actually )?(?:at|with) ",
    ),
    # "I'm in Sacramento, CA.", "We're in Adelaide at the moment but ..."
    (
        re.compile(rf"(?:{_I_AM}|{_WE_ARE}) (?:based )?in\s+{NAMED_PLACE}{PLACE_END}{_STAYING}"),
        "location",
        _a_place,
        "(?:'m|'re|am|are) (?:now |currently |still |actually )?(?:based )?in ",
    ),
    # "Home is Leipzig at the moment", "Hastings is home", "home is now Bristol"
    (
        re.compile(
            rf"(?:^|[.!?,;]\s+|\b(?:and|but|so) )(?:[Hh]ome|[Oo]ur home|[Mm]y home) (?:is|'s) (?:now )?"
            rf"{NAMED_PLACE}{PLACE_END}{_NOT_FOR_SOMEONE}"
        ),
        "location",
        _a_home,
        "home",
    ),
    (
        re.compile(
            rf"(?:^|[.!?,;]\s+|\b(?:and|but|so) ){NAMED_PLACE} is (?:now )?(?:my |our )?home"
            # the clause ends at "home" (not "home to many museums", "my home away from home", "home turf")
            r"(?=\s*[.,;!?\n]|\s*$|\s+(?:now|for now|and|but|so|though|too|these days|at the moment|"
            r"again(?!,? for\b))\b)"
        ),
        "location",
        _a_home,
        "home",
    ),
    # "I've been in Salt Lake City since June", "we've been in Leeds for two years"
    (
        re.compile(rf"\b(?:I|[Ww]e)(?:'ve| have) been (?:living |based )?in\s+{NAMED_PLACE}{_A_WHILE_LIVED}"),
        "location",
        _a_place,
        "been (?:living |based )?in ",
    ),
    # "I finally moved in with my girlfriend in Warwick"
    (
        re.compile(  # (not "... for the summer", "... when I was 12")
            rf"{SPEAKER} {_LIVED} in with [^.,;!?\n]{{2,40}}? in\s+{NAMED_PLACE}{PLACE_END}"
            rf"(?!{FOR_A_WHILE}|\s+when I was\b)"
        ),
        "location",
        _a_place,
        "in with",
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
        _a_place,
        "moved in",
    ),
    # "I left Michigan for Irvine", "... which meant leaving Leeds for Bath": both places
    (
        re.compile(
            rf"(?:{SPEAKER}|\b(?:meant|meaning)) (?:left|leaving|swapped|swapping|traded) "
            rf"(?P<from>[A-Z][\w'-]*"
            rf"(?: [A-Z][\w'-]*)*) for\s+{NAMED_PLACE}{PLACE_END}(?!{FOR_A_WHILE}|{_A_DAYS_TRIP})"
        ),
        "location",
        _a_place,
        "left|leaving|swap|trad",
    ),
    # a sentence without its subject: "Moved back home to Swansea last month", "Just relocated to Leeds"
    (
        re.compile(
            r"(?:^|[.!?]\s+)(?:(?:[Jj]ust|[Ff]inally|[Rr]ecently|[Oo]fficially) )?"
            r"(?i:moved|relocated|upped sticks)"
            rf"{MOVE_TO}"
        ),
        "location",
        _a_place,
        "moved|relocated|upped",
    ),
]
CHECKS: dict[int, Check] = {id(p): check for p, _, check, _ in PATTERNS}
WORDS: dict[int, re.Pattern[str]] = {id(p): re.compile(words) for p, _, _, words in PATTERNS}
GATE = re.compile("|".join(f"(?:{w.pattern})" for w in WORDS.values()))  # any of them
