"""Plans called off or put off, without an LLM (pure): "I'm not moving to Manchester after all", "the move to
Oslo fell through", "I turned down the job at Spotify", "the move got pushed back to June", "I'm not moving
to Leeds until March". What they give is :func:`graphmem.model.fact_patterns.extract`'s (through
:func:`graphmem.model.fact_changes.withdrawals`); what a withdrawal does is
:func:`graphmem.model.fact_endings.plan_withdraw`'s."""

from __future__ import annotations

import re

from graphmem.model.pattern_pieces import END, MONTH_NAME, NAMED, OBJ, PLACE, PLACE_END, compile_rule
from graphmem.model.plan_patterns import (
    MOVE_VERB,
    NOT_A_DATE,
    NOT_PUT_OFF,
    NOT_WILL,
    OFF_END,
    UNTIL,
    VERB_OFF_END,
)

__all__ = ["PUT_OFF", "PUT_OFF_UNTIL", "WITHDRAWN", "WORDS"]

# A plan called off: "I'm not moving to Manchester after all", "I won't be moving", "I've decided not to move
# to Oslo", "the move to Oslo is off", "I turned down the job at Spotify", "I'm not starting at Spotify after
# all". The key's plan not started yet (the one naming the value, or any when none is named) is withdrawn
# (graphmem.model.fact_endings.plan_withdraw); without one nothing changes.
_FELL_THROUGH = (
    r"(?:(?:has |had )?(?:fell|fallen) through|(?:was|has been|got|is) (?:withdrawn|rescinded|pulled))"
)
_IS_OFF = r"(?:is|'s|was|got|has been) (?:off|cancel+ed|called off|not happening|on hold)"
# a name as one writes it: "Manchester", "New York", "Monzo" (not "They", "the")
_PROPER = r"(?!(?:They|He|She|It|We|You|The|This|That)\b)(?P<obj>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,3})"
WITHDRAWN: list[tuple[re.Pattern[str], str]] = [
    (
        compile_rule(
            rf"(?:{NOT_WILL}) {MOVE_VERB}(?: house| back)?"
            rf"(?:(?> to\s+{PLACE}{PLACE_END}){NOT_PUT_OFF}|{VERB_OFF_END})"
        ),
        "location",
    ),
    (
        compile_rule(rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:move|relocation)(?: to\s+{PLACE})? {_IS_OFF}{OFF_END}"),
        "location",
    ),
    (  # the place before the move: "The Manchester move is off", "the Manchester move fell through", "The
        # Winchester flat fell through"
        compile_rule(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) {_PROPER} (?:move|relocation|flat|house|apartment|place|"
            rf"house purchase|purchase|sale) (?:{_IS_OFF}{OFF_END}|{_FELL_THROUGH}{END})"
        ),
        "location",
    ),
    (  # "the flat in Malmo fell through", "the house in Poole is off"
        compile_rule(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:flat|house|apartment|place|home) in\s+{_PROPER} "
            rf"(?:{_IS_OFF}{OFF_END}|{_FELL_THROUGH}{END})"
        ),
        "location",
    ),
    (  # a plan named, either key: "I've decided not to go to Graphcore after all", "we're not going to
        # Derry after all" (a pending plan naming it is withdrawn; none, nothing changes)
        compile_rule(rf"(?:{NOT_WILL}) go(?:ing)? (?:to|with)\s+{_PROPER}(?=\s+(?:after all|any ?more)\b)"),
        "employer",
    ),
    (
        compile_rule(rf"(?:{NOT_WILL}) go(?:ing)? (?:to|with)\s+{_PROPER}(?=\s+(?:after all|any ?more)\b)"),
        "location",
    ),
    (  # "I didn't end up moving to Sheffield", "we never moved"
        compile_rule(
            rf"\b(?:I|[Ww]e) (?:didn't|did not|never) (?:end up |actually |get to )?(?:mov(?:e|ing)|"
            rf"relocat(?:e|ing))(?:(?> to\s+{PLACE}{PLACE_END}){NOT_PUT_OFF}|{VERB_OFF_END})"
        ),
        "location",
    ),
    (  # staying where one is, after all: "We've decided to stay in Glasgow after all" (not "The party was
        # great, I ended up staying", "It's snowing so I'm staying put")
        compile_rule(
            r"\b(?:I|[Ww]e)(?:'ve| have|'m|'re| am| are)? (?:ended up staying|decided to stay|staying put|"
            r"stayed put)(?: here| in\s+(?=[A-Z])[^.,;!?\n]{2,40}?)?(?=\s+after all)"
        ),
        "location",
    ),
    (
        compile_rule(
            rf"\b(?:I|[Ww]e)(?:'ve| have)? (?:called off|cancel+ed|scrapped|ditched|shelved|dropped|"
            r"abandoned) "
            # (a place before it named as said, "the Philly move": any pending plan)
            rf"(?:the|my|our) (?:[A-Z][\w'-]* )?(?:move|relocation)(?: to\s+{PLACE}{PLACE_END}|{OFF_END})"
        ),
        "location",
    ),
    (
        compile_rule(
            rf"(?:{NOT_WILL}) (?:start(?:ing)?|tak(?:e|ing)|join(?:ing)?) (?:(?:a |my |the )?(?:new )?"
            rf"(?:job|position|role|work(?:ing)?) )?(?>(?:at|with|for)\s+{OBJ}{END}){NOT_PUT_OFF}"
        ),
        "employer",
    ),
    (  # "I'm not taking the job after all" (not "I'm not taking the offer", which may be anything's)
        compile_rule(
            rf"(?:{NOT_WILL}) (?:tak(?:e|ing)|accept(?:ing)?|start(?:ing)?) (?:the|that|this) (?:new )?"
            rf"(?:job(?: offer)?|position|role)(?=\s+(?:after all|any ?more))"
        ),
        "employer",
    ),
    (  # "The move to Oslo fell through", "the job offer at Spotify was withdrawn because of the visa"
        compile_rule(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:move|relocation)(?: to\s+{PLACE})? {_FELL_THROUGH}{END}"
        ),
        "location",
    ),
    (  # a job, a role or an offer from an employer: not "our offer on the house fell through"
        compile_rule(
            rf"\b(?:[Tt]he|[Mm]y) (?:new )?(?:job offer|(?:job(?: offer)?|position|role|offer) "
            rf"(?:at|with|from)\s+{OBJ}) {_FELL_THROUGH}{END}"
        ),
        "employer",
    ),
    (  # "the role's been cut so the offer's gone": an offer unnamed, in a sentence about a job
        compile_rule(
            r"\b(?:job|role|position)\b[^.!?\n]{0,80}?\b(?:the|my|their) (?:job )?offer(?:'s| is| has| was)"
            rf"(?: been)? (?:gone|off|withdrawn|pulled|rescinded|cancel+ed){END}"
        ),
        "employer",
    ),
    (  # "Monzo withdrew the offer"
        compile_rule(
            rf"\b{_PROPER} (?:withdrew|rescinded|pulled|cancel+ed) (?:the|my|their|its) (?:job )?offer{END}"
        ),
        "employer",
    ),
    (  # "I turned the Monzo offer down"
        compile_rule(
            rf"\bI(?:'ve| have)? (?:turned down|declined|rejected|turned) (?:the|their) {_PROPER} offer"
            rf"(?: down)?{END}"
        ),
        "employer",
    ),
    (  # unnamed, only a job's own words: "I declined the position." (not "the offer", "the role of best man")
        compile_rule(
            rf"\bI(?:'ve| have)? (?:turned down|declined|rejected) (?:the |their |a )?(?:(?:job |work )?"
            rf"(?:offer|job|position|role) (?:at|with|from)\s+{OBJ}{END}|(?:(?:job |work )offer|job|"
            rf"position|role){OFF_END})"
        ),
        "employer",
    ),
    (  # the firm turned down by name: "I've decided to turn down Maurice Blackburn and stay" (a pending plan
        # naming it is withdrawn; none, nothing)
        compile_rule(
            r"\bI(?:'ve| have)?(?: decided to|'m going to| am going to|'ll| will)? (?:turn(?:ed)? down|"
            rf"decline[d]?|reject(?:ed)?) {_PROPER}(?=\s+(?:and|after all|but|so)\b|\s*[.,;!?\n]|$)"
        ),
        "employer",
    ),
]
# A plan put off to a new date ("the move got pushed back to June", "I'm not moving to Leeds until March", "my
# start date at Spotify was moved to May"): the key's pending plan (naming the value, or any) is withdrawn and
# its value planned again from the date the clause names after the verb (graphmem.model.planned.moved_start),
# or, said of a value with no plan pending, planned from it; put off with no date ("the move has been
# postponed") it is called off. A shift relative to the old date ("pushed back a month") is not read.
_DELAYED = (
    r"(?:pushed back|pushed|postponed|delayed|put off|moved|rescheduled|bumped(?: back)?|brought forward|"
    r"moved up)"
)
_WAS = r"(?:has been|had been|was|got|is|'s been|'s|has|have)(?: now| just)?"
_JOB_WORDS = r"(?:a |my |the )?(?:new )?(?:job|position|role|work(?:ing)?)"
# (or "again": "The Doha move got delayed again. Now it's March 15", planned.moved_start)
_DELAYED_TO = rf"(?: again)?(?:(?=(?: back)? (?:to|until|till)\b)|{OFF_END})"
PUT_OFF: list[tuple[re.Pattern[str], str]] = [
    (  # the place before the move: "Our Delhi move is postponed to 1 April"
        compile_rule(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) {_PROPER} (?:move|relocation) {_WAS} {_DELAYED}{_DELAYED_TO}"
        ),
        "location",
    ),
    (
        compile_rule(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:move|relocation)(?: to\s+{NAMED}{PLACE})? {_WAS} {_DELAYED}"
            rf"{_DELAYED_TO}"
        ),
        "location",
    ),
    (
        compile_rule(
            rf"\b(?:I|[Ww]e)(?:'ve| have| had)? (?:postponed|delayed|pushed back|put off|rescheduled) "
            rf"(?:the|my|our) (?:move|relocation)(?: to\s+{NOT_A_DATE}{NAMED}{PLACE})?{_DELAYED_TO}"
        ),
        "location",
    ),
    (
        compile_rule(
            rf"\b(?:[Mm]y|[Tt]he) start(?:ing)? date(?: (?:at|with)\s+{NAMED}{OBJ})? {_WAS} {_DELAYED}"
            rf"{_DELAYED_TO}"
        ),
        "employer",
    ),
    (  # "Aston Martin have pushed my start back to the 1st of March"
        compile_rule(rf"\b{_DELAYED} my start(?:ing)?(?: date)?(?: back| forward)?{_DELAYED_TO}"),
        "employer",
    ),
    (  # "the Pittsburgh move is now January 8th", "the move is now on the 20th"
        compile_rule(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur)(?: {_PROPER})? (?:move|relocation) (?:is|'s) now"
            rf"(?= (?:on |in )?(?:the )?(?:\d|(?i:{MONTH_NAME}|next|mon|tues|wednes|thurs|fri|satur|sun)))"
        ),
        "location",
    ),
    (  # the date alone, with the plan's change said: "we're moving on 15 January instead!", "so I start
        # on 11 January now"
        compile_rule(
            r"\b(?:I(?:'m| am)|[Ww]e(?:'re| are))(?: now)? (?:moving|relocating)(?= (?:on|in) (?!to\b))"
            r"(?=[^.!?;\n]{0,40}\b(?:instead|now|earlier|sooner|early)\b)"
        ),
        "location",
    ),
    (
        compile_rule(
            r"\bI(?:'ll| will)?(?: now)? start(?= (?:on|in) )"
            r"(?=[^.!?;\n]{0,40}\b(?:instead|now|earlier|sooner)\b)"
        ),
        "employer",
    ),
]
# "I'm not moving to Leeds until June", "I'm not starting at Spotify until March": put off to a date (a fact
# only with one: "I'm not moving until you apologise" is none)
_I_NOT_WILL = r"\bI(?:'m not| am not| won't| will not)(?: be)?(?: going to)?"  # not "we": a team's move too
PUT_OFF_UNTIL: list[tuple[re.Pattern[str], str]] = [
    (
        compile_rule(
            rf"{_I_NOT_WILL} {MOVE_VERB}(?: house| back)?(?: to\s+{NAMED}{PLACE})?"
            rf"(?={UNTIL})"
        ),
        "location",
    ),
    (  # a job's words, or a name: not "I'm not starting with the new diet until Monday"
        compile_rule(
            rf"(?:{NOT_WILL}) (?:start(?:ing)?|join(?:ing)?) (?:{_JOB_WORDS} (?:at|with|for)\s+|at\s+{NAMED})"
            rf"{OBJ}(?={UNTIL})"
        ),
        "employer",
    ),
]


# the words each pattern of WITHDRAWN, PUT_OFF and PUT_OFF_UNTIL needs (lower case), by the pattern's id: a
# turn without any is not searched with it (tests/test_everyday_regressions.py turns the filters off: the
# same facts)
_FELL = r"fell|fallen|withdrawn|rescinded|pulled"
WORDS: dict[int, re.Pattern[str]] = {
    id(pattern): compile_rule(words)
    for patterns, all_words in (
        (
            WITHDRAWN,
            (r"mov|relocat", r"move|relocation", r"move|relocation|flat|house|apartment|place|purchase|sale",
             r"flat|house|apartment|place|home", r"\bgo(?:ing)? (?:to|with)", r"\bgo(?:ing)? (?:to|with)",
             r"mov|relocat", r"stay", r"called off|cancel|scrapped|ditched|shelved|dropped|abandoned",
             r"start|tak|join", r"tak|accept|start", _FELL, _FELL, r"offer", r"offer", r"offer",
             r"turned down|declined|rejected", r"turn|declin|reject"),
        ),
        (
            PUT_OFF,
            (r"move|relocation", r"move|relocation", r"postponed|delayed|pushed|put off|rescheduled",
             r"start", r"start", r"move|relocation", r"moving|relocating", r"start"),
        ),
        (PUT_OFF_UNTIL, (r"mov|relocat", r"start|join")),
    )
    for (pattern, _), words in zip(patterns, all_words, strict=True)
}  # fmt: skip
