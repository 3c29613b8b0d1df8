"""Where one lives, said in the words people use beside "I live in" (pure): "Home is Leipzig", "I'm in
Sacramento, CA.", "I've been in Salt Lake City since June", "Moved back home to Swansea", "3 months in Denver
now"; with :mod:`graphmem.model.work_patterns`, where one works. Each pattern's value must pass its check, a
place people live in (:func:`graphmem.model.places.is_place`), since the same words carry a trip ("I'm in
Paris for the weekend" is stopped by its words, "I'm in Tokyo, landed an hour ago" by its sentence's, "I'm in
a meeting" by the check). :func:`graphmem.model.fact_patterns.extract` searches them with its own
patterns."""

from __future__ import annotations

import re

from graphmem.model.elided import about_someone
from graphmem.model.pattern_pieces import (
    A_TRIP,
    FOR_A_WHILE,
    HOUSEHOLD,
    KIN,
    MONTH,
    MONTH_NAME,
    MOVE_TO,
    NAMED_PLACE,
    PLACE_END,
    SEASON,
    SPEAKER,
    US,
    compile_rule,
    sentence_end,
    sentence_start,
)
from graphmem.model.people import is_role
from graphmem.model.places import is_place
from graphmem.model.role_patterns import ROLE_PATTERNS
from graphmem.model.work_patterns import I_AM, WORK_PATTERNS, Check

__all__ = ["CHECKS", "GATE", "PATTERNS", "WORDS"]

_WE_ARE = rf"{HOUSEHOLD}(?:'re| are)(?: now| currently| still)?"
# a place stated as where one is, not where one is for a while: not "I'm in Paris!", "I'm in London for the
# weekend", "... until Friday", "... this week", "I'm in Paris visiting my aunt", "I'm in Leeds with work",
# "I'm in Florida, visiting my parents", "I'm in Berlin next week", "I'm in Copenhagen in March", "... from
# Thursday", "I'm in Cardiff, just for the day", "I'm in York, back Monday"
_STAYING = (
    r"(?!\s*!|,?\s+(?:for|until|till|on|this|today|tonight|tomorrow|with|during|visiting|next|from|just|back|"
    rf"(?i:in (?:{MONTH_NAME}|(?:the )?{SEASON}))|"
    r"at the (?:airport|station|"
    r"hospital|office)|right now|again|overnight)\b)"
)
# "since June", "since 2019", "since college", "for two years": a month, a season, a year or a time of life
# (not "since Monday", "since yesterday", "since the 3rd", "since 9am", "since last week", "since the
# funeral", "for the weekend")
_A_WHILE_LIVED = (
    rf"(?=\s+(?:since (?i:(?:early |mid-?|late )?(?:the )?{MONTH}\b|(?:the |last )?{SEASON}\b|\d{{4}}\b|"
    rf"last (?:year|month)\b|the (?:start|beginning|middle|end) of (?:the |last |this )?(?:year|month|"
    rf"{SEASON}|{MONTH}|\d{{4}})\b|(?:I|we) (?:was|were|moved|came|got|left|graduated|married)\b|college|"
    r"uni|university|school|graduation|birth|covid|lockdown|the (?:pandemic|lockdown|divorce)\b)|"
    r"for (?:about |almost |nearly |over |more than )?(?:a|an|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+) (?:years?|months?)\b))"
)
# a home told for someone else: "Home is Hull for Sam" (not "for now", "for the time being")
_NOT_FOR_SOMEONE = r"(?!,?\s+for\b(?! now\b| the (?:moment|time being)\b))"
# a clause told of someone else's home before it: "For my parents, Dublin is home", "To my dad, Belfast is
# home"
_SOMEONE_ELSES = compile_rule(
    r"(?:^|[.!?]\s+)(?:[Ff]or|[Tt]o|[Aa]ccording to) (?:my|our|his|her|their|[A-Z]\w+)\b[^.!?\n]*$"
)
# a journey on the day said, not a move: "I left Leeds for Bath yesterday", "... this morning, back Sunday"
_A_DAYS_TRIP = r",?\s+(?:today|tonight|yesterday|this (?:morning|afternoon|evening))\b"
_LIVED = r"(?:moved|moving|relocated|relocating|upped sticks|emigrated)"
# the words of a trip, a visit or a sight seen (where one is for now, not where one lives)
_SENTENCE_END = compile_rule(r"[.!?\n]+\s*")


def _sentence_after(text: str, at: int) -> int:
    """Where the sentence after the one holding ``at`` ends."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text, at)][:2]
    return ends[-1] if ends else len(text)


def _a_place(value: str, text: str, match: re.Match[str]) -> bool:
    """The value is a place, and so is what was left for it ("I left Michigan for Irvine")."""
    left = match.groupdict().get("from")
    return is_place(value) and (left is None or is_place(left))


# a home had for others or for a while: "... to rent out", "as a holiday let", "for the summer"
_NOT_TO_LIVE_IN = (
    r",?\s+(?:to (?:rent|let)|as an? (?:holiday|second|investment)|for (?:the )?(?:holidays?|summer)|"
    rf"for (?:my|his|her|their|our) (?:{KIN}|son|daughter|kids|mum|mom|dad)|"
    r"in (?:the|a|my) (?:game|dream|story|book|novel|show|film|movie))\b|\s*\?"
)


def _no_trip(value: str, text: str, match: re.Match[str]) -> bool:
    """A place, with no trip's word in its sentence (pattern_pieces.TRIP; "came for", "here to see")."""
    start, end = sentence_start(text, match.start()), sentence_end(text, match.end())
    return (
        is_place(value)
        and A_TRIP.search(text, start, end) is None
        and _CAME_FOR.search(text, start, end) is None
    )


_CAME_FOR = compile_rule(r"\b(?:came|come|here|over|down|up) (?:for|to visit|to see)\b", re.I)


def _lived_in(value: str, text: str, match: re.Match[str]) -> bool:
    """A place, and the sentence (or the next) tells no trip: "I'm in Sacramento, CA." but not "I'm in
    Tokyo, landed an hour ago", "I'm in Dublin. Any restaurant recommendations?", "I've been in Iceland for a
    month, heading home soon"."""
    return is_place(value) and A_TRIP.search(text, match.start(), _sentence_after(text, match.end())) is None


def _working_in(value: str, text: str, match: re.Match[str]) -> bool:
    """A place one's job is in (:func:`graphmem.model.people.is_role`), said of no trip."""
    return is_role(match["role"]) and _lived_in(value, text, match)


def _moved_myself(value: str, text: str, match: re.Match[str]) -> bool:
    """A place moved to, in a sentence that drops its subject after no sentence about someone else ("Jake's
    doing well. Moved to Denver in the spring.", "What about Tom? Moved to Leeds")."""
    return is_place(value) and not about_someone(text, match.start("verb"))


# what a sentence says of a home that is not (or no longer, or not yet) where the speaker lives: "We put our
# Leeds flat on the market", "My ex still lives in our Denver apartment", "I grew up in my Bristol house", "I
# loved my Barcelona apartment back in 2019", "Our Rome apartment has a great view, we're here till Sunday"
_NOT_MY_HOME_NOW = compile_rule(
    r"\b(?:grew up|used to|loved|miss(?:ed|ing)?|dream\w*|remember\w*|lived|still lives?|lives in|"
    r"on the market|"
    r"rent(?:ing|ed)? (?:it )?out|put|sold|selling|till|until|back in \d{4}|keys|host)\b",
    re.IGNORECASE,
)
_SENTENCE_START = compile_rule(r".*[.!?\n]", re.DOTALL)


def _home_named_first(value: str, text: str, match: re.Match[str]) -> bool:
    """A home named by its town first ("our Bergen apartment"), lived in now: :func:`_lived_in`, and its
    sentence says nothing of a home left, let, missed or someone else's (:data:`_NOT_MY_HOME_NOW`)."""
    before = _SENTENCE_START.match(text, 0, match.start())
    start = before.end() if before else 0
    end = _SENTENCE_END.search(text, match.end())
    sentence = text[start : end.start() if end else len(text)]
    return _lived_in(value, text, match) and _NOT_MY_HOME_NOW.search(sentence) is None


def _a_home(value: str, text: str, match: re.Match[str]) -> bool:
    """A place called home, not someone else's: "For my parents, Dublin is home" (but "To be honest, home is
    Leipzig now")."""
    return is_place(value) and _SOMEONE_ELSES.search(text, 0, match.start() + 1) is None


# each pattern, its key, its check and the words it needs (lower case) before it is searched
_HOME_PATTERNS: list[tuple[re.Pattern[str], str, Check, str]] = [
    # "I'm in Sacramento, CA.", "We're in Adelaide at the moment but ..."
    (
        compile_rule(rf"(?:{I_AM}|{_WE_ARE}) (?:based )?in\s+{NAMED_PLACE}{PLACE_END}{_STAYING}"),
        "location",
        _lived_in,
        "(?:'m|'re|am|are) (?:now |currently |still |actually )?(?:based )?in ",
    ),
    # "I'm up in Grand Rapids", "I'm over in Adelaide" (not "Just landed, I'm over in Dublin", "I'm down in
    # Miami, came for spring break": said of a trip as often, so no trip's word anywhere in the sentence)
    (
        compile_rule(rf"(?:{I_AM}|{_WE_ARE}) (?:up|over|down|out) in\s+{NAMED_PLACE}{PLACE_END}{_STAYING}"),
        "location",
        _no_trip,
        "(?:'m|'re|am|are) (?:now |currently |still |actually )?(?:up|over|down|out) in ",
    ),
    # "Home is Leipzig at the moment", "Hastings is home", "home is now Bristol"
    (
        compile_rule(
            rf"(?:^|[.!?,;]\s+|\b(?:and|but|so) )(?:[Hh]ome|[Oo]ur home|[Mm]y home) (?:is|'s) (?:now )?"
            rf"{NAMED_PLACE}{PLACE_END}{_NOT_FOR_SOMEONE}"
        ),
        "location",
        _a_home,
        "home",
    ),
    (
        compile_rule(
            rf"(?:^|[.!?,;]\s+|\b(?:and|but|so) ){NAMED_PLACE} is (?:now )?(?:my |our )?home"
            # the clause ends at "home" (not "home to many museums", "my home away from home", "home turf")
            r"(?=\s*[.,;!?\n]|\s*$|\s+(?:now|for now|and|but|so|though|too|these days|at the moment|"
            r"again(?!,? for\b))\b)"
        ),
        "location",
        _a_home,
        "home",
    ),
    # "I've been in Salt Lake City since June", "we've been in Leeds for two years", "I'm a postdoc at ... and
    # have lived in Ann Arbor since 2022"
    (
        compile_rule(
            rf"(?:\b(?:I|[Ww]e)(?:'ve| have)|\bI\b[^.!?\n]{{0,80}}? and have) "
            rf"(?:been (?:living |based )?|lived )in\s+{NAMED_PLACE}{_A_WHILE_LIVED}"
        ),
        "location",
        _lived_in,
        "been (?:living |based )?in |lived in ",
    ),
    # "I finally moved in with my girlfriend in Warwick"
    (
        compile_rule(  # (not "... for the summer", "... when I was 12")
            rf"{SPEAKER} {_LIVED} in with [^.,;!?\n]{{2,40}}? in\s+{NAMED_PLACE}{PLACE_END}"
            rf"(?!{FOR_A_WHILE}|\s+when I was\b)"
        ),
        "location",
        _a_place,
        "in with",
    ),
    # "We've just bought a house in Sheffield and moved in last Friday", "We bought a house in Gleisdorf,
    # moved in June!" (bought alone may be to let)
    (
        compile_rule(
            r"\b(?:I|[Ww]e)(?:'ve| have)?(?: just| finally)? (?:bought|got the keys to|closed on) "
            r"(?:a|an|our|my) "
            rf"(?:[\w-]+ )?(?:house|flat|home|place|apartment|bungalow|cottage) in\s+{NAMED_PLACE}"
            r"(?=,? (?:and )?(?:have |'ve )?(?:just |finally )?moved in\b(?! with\b))"
        ),
        "location",
        _a_place,
        "moved in",
    ),
    # "I left Michigan for Irvine", "... which meant leaving Leeds for Bath": both places
    (
        compile_rule(
            rf"(?:{SPEAKER}|{US}|\b(?:meant|meaning)) (?:left|leaving|swapped|swapping|traded) "
            rf"(?P<from>[A-Z][\w'-]*"
            rf"(?: [A-Z][\w'-]*)*) for\s+{NAMED_PLACE}{PLACE_END}(?!{FOR_A_WHILE}|{_A_DAYS_TRIP})"
        ),
        "location",
        _a_place,
        "left|leaving|swap|trad",
    ),
    # a sentence without its subject: "Moved back home to Swansea last month", "Just relocated to Leeds", "big
    # news: moved up to Porto", "we finally did it — moved to Bath", "I quit Samsung, moved back home to
    # Busan", "Having moved to Aberystwyth in July"
    (
        compile_rule(
            # (after a clause of the speaker's own that names no one else: not "I saw Tom, moved to Leeds")
            # (or a dash after a clause of the speaker's own naming no one else: "we did it — moved to Bath")
            r"(?:^|[.!?:]\s+|\b(?:I|[Ww]e)\b(?:(?![A-Z]|\b(?:my|his|her|their|he|she|they)\b)[^.!?\n]){0,60}?"
            r"\s[—–-]\s+|(?:\b(?:I|we)\b|(?:^|[.!?:]\s+)(?-i:[a-z]\w+ed)\b)"
            r"(?:(?![A-Z]|\b(?:my|his|her|their|he|she|they)\b)[^.!?\n]){0,60}?,\s+"
            r"(?:and |then )?|(?:^|[.!?:]\s+)[Hh]aving (?:just |recently )?)"
            r"(?:(?:[Jj]ust|[Ff]inally|[Rr]ecently|[Oo]fficially) )?"
            r"(?P<verb>(?i:moved|relocated|upped sticks|shifted))"
            rf"{MOVE_TO}(?!{FOR_A_WHILE})"
        ),
        "location",
        _moved_myself,
        "moved|relocated|upped|shifted",
    ),
    # "3 months in Denver now and I still can't get used to the altitude", "two years in Leeds now" (not
    # weeks: a stay)
    (
        compile_rule(
            r"(?:^|[.!?:]\s+|\b(?:and|but|so) )(?i:\d+|a few|a couple of|two|three|four|five|six|seven|eight|"
            rf"nine|ten|eleven|twelve|several|many) (?:months|years) in\s+{NAMED_PLACE}(?= now\b)"
        ),
        "location",
        _lived_in,
        "months in|years in",
    ),
    # "since moving to Graz in the spring", "ever since relocating to Leeds" (a move of one's own, past; not
    # "since moving to Paris for the summer")
    (
        compile_rule(rf"\b(?:[Ss]ince|[Ee]ver since) (?:moving|relocating){MOVE_TO}(?!{FOR_A_WHILE})"),
        "location",
        _lived_in,
        "since moving|since relocating",
    ),
    # "I'm a nurse in Winnipeg", "I'm a high school teacher in Tulsa": a job's title, then the town (not "I'm
    # a tourist in Rome", "I'm a bridesmaid in Bath next week")
    (
        compile_rule(
            rf"{I_AM} an? (?:[\w-]+ ){{0,3}}?(?P<role>[\w-]+) (?:in|based in)\s+{NAMED_PLACE}{PLACE_END}"
            rf"{_STAYING}"
        ),
        "location",
        _working_in,
        "(?:'m|am) (?:now |currently |still |actually )?an? ",
    ),
    # "I reside in Enugu", "we stay in Tampines" (where "stay" is "live"; a place, no trip said: not "we stay
    # in Premier Inn when in London")
    (
        compile_rule(
            r"\b(?:I|[Ww]e)(?: now| currently)? (?:reside|stay) in\s+"
            rf"{NAMED_PLACE}{PLACE_END}(?!{FOR_A_WHILE}|\s+(?:when|whenever|if)\b)"
        ),
        "location",
        _lived_in,
        "reside|stay in",
    ),
    # "my flat in Reading has a mouse problem", "our house in Leeds" (not "my old flat in Leeds", "our
    # holiday house in Cornwall", "my parents' house in York", "my flat in Leeds, which I rent out", "I moved
    # out of my place in Soho")
    (
        compile_rule(
            r"(?<!out of )(?<!from )(?<!left )\b(?:[Mm]y|[Oo]ur) (?!(?:old|previous|former|first|last|"
            r"holiday|summer|second|parents'|mum's|mom's|dad's|nan's|gran's)\b)(?:[\w-]+ )?"
            r"(?:flat|house|apartment|condo|bungalow|place) in\s+"
            rf"{NAMED_PLACE}(?![\w'-])(?!,? (?:which|that) (?:I|we) (?:rent out|let)|,? to (?:rent|let)|"
            r"\s+(?:is|was) "
            r"(?:for sale|on the market|let)\b)"
        ),
        "location",
        _lived_in,
        "my |our ",
    ),
    # "the last box in our Bergen apartment", "my London flat is tiny", "our new Leeds house": the town before
    # the home (not "our old Leeds flat", "my Cornwall holiday house", "our Paris apartment for the week",
    # "handed back the keys to our Lisbon flat", "we sold our Leeds house")
    (
        compile_rule(
            r"(?<!out of )(?<!from )(?<!left )(?<!leaving )(?<!keys to )(?<!sold )(?<!selling )(?<!miss )"
            r"\b(?:[Mm]y|[Oo]ur) (?:new )?(?P<obj>[A-Z][\w'-]*(?: [A-Z][\w'-]*)?) "
            r"(?:flat|house|apartment|condo|home)\b"
            rf"(?!{FOR_A_WHILE}|,?\s+(?:to (?:rent|let)|is (?:for sale|on the market))\b)"
            # a home not (yet) had: "Our Manchester flat is on hold", "the Leeds house purchase"
            r"(?!\s+(?:purchase|sale|viewing|deal|hunt|search|move|plans?)\b|\s+(?:is|was|'s|has) (?:now )?"
            r"(?:off|on hold|cancelled|canceled|fallen through|falling through|gone|sold|not happening)\b|"
            r"\s+fell through\b)"
        ),
        "location",
        _home_named_first,
        "my |our ",
    ),
    # "our new place is in Round Rock", "my flat's in Leith" (where the home is, not what it is like)
    (
        compile_rule(
            r"\b(?:[Mm]y|[Oo]ur) (?:new )?(?:flat|house|place|apartment|home|condo)(?:'s| is) (?:now )?in\s+"
            rf"{NAMED_PLACE}{PLACE_END}"
        ),
        "location",
        _lived_in,
        "my |our ",
    ),
    # "we live in a small town called Bend", "we live in a flat in Manchester, Didsbury", "New flat in
    # Leeds, near Kirkstall", "signed a lease in Philadelphia" (a home described, or rented; not "a flat in
    # Rome for the holidays")
    (
        compile_rule(
            rf"(?:(?:\bI|{HOUSEHOLD}) (?:now |still )?live in (?:a|an) (?:[\w-]+ ){{0,2}}?"
            r"(?:town|city|village|suburb|flat|house|apartment|place|condo|studio|bungalow|cottage) "
            r"(?:called |named |in\s+)|"
            r"(?:^|[.!?]\s+)[Nn]ew (?:flat|house|apartment|home|condo) in\s+|"
            rf"{SPEAKER} signed (?:a|the|our) (?:new )?(?:\d-year |one-year |year-long )?lease "
            r"(?:on (?:a|an|the) (?:[\w-]+ ){0,2}?"
            r"(?:flat|house|apartment|place|condo|studio|unit|room|home) )?"
            r"in\s+)"
            rf"{NAMED_PLACE}(?![\w'-])(?!{FOR_A_WHILE}|{_NOT_TO_LIVE_IN})"
        ),
        "location",
        _lived_in,
        "live in a|new |lease",
    ),
    # "We now call Tauranga home", "I call Leeds home these days"
    (
        compile_rule(rf"\b(?:I|[Ww]e) (?:now |currently |still )?call\s+{NAMED_PLACE} home\b"),
        "location",
        _a_home,
        "call",
    ),
    # "my new flat in Leith", "our new place in Graz is tiny" (not "a new place in Rome for the holidays",
    # "... to rent out")
    (
        compile_rule(
            r"\b(?:[Mm]y|[Oo]ur) new (?:flat|house|place|apartment|home|condo|bungalow|digs) in\s+"
            rf"{NAMED_PLACE}(?![\w'-])(?!{FOR_A_WHILE}|{_NOT_TO_LIVE_IN})"
        ),
        "location",
        _lived_in,
        "new (?:flat|house|place|apartment|home|condo|bungalow|digs) in",
    ),
]
PATTERNS = WORK_PATTERNS + ROLE_PATTERNS + _HOME_PATTERNS
CHECKS: dict[int, Check] = {id(p): check for p, _, check, _ in PATTERNS}
WORDS: dict[int, re.Pattern[str]] = {id(p): compile_rule(words) for p, _, _, words in PATTERNS}
GATE = compile_rule("|".join(f"(?:{w.pattern})" for w in WORDS.values()))  # any of them
