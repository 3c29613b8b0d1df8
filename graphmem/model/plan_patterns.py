"""Changes stated ahead, and called off, without an LLM (pure): the patterns that make a fact a plan ("I'll be
moving to Oslo next month", "Emma will be moving to Porto") or withdraw one ("I'm not moving to Manchester
after all"). What they give is :func:`graphmem.model.fact_patterns.extract`'s; when a plan starts is
:mod:`graphmem.model.planned`'s."""

from __future__ import annotations

import re

from graphmem.model.pattern_pieces import (
    END,
    FOR_A_WHILE,
    HOUSEHOLD,
    JOB,
    MOVE_TO,
    NAMED,
    OBJ,
    PLACE,
    PLACE_END,
    SPEAKER,
    STOP,
    US,
    WHO,
)

__all__ = [
    "AFTER_ALL",
    "CORRECTED",
    "HOUSEHOLD_MOVED",
    "INSTEAD",
    "PLANNABLE",
    "PLANNED",
    "PROGRESSIVE",
    "PUT_OFF",
    "PUT_OFF_UNTIL",
    "STAYED",
    "STAY_CUE",
    "THIRD",
    "THIRD_PLANNED",
    "THIRD_PUT_OFF",
    "THIRD_WITHDRAWN",
    "WITHDRAWN",
]

_MOVE = r"(?:moving|relocating|move|relocate)"
# Someone else's place or work, named: "Emma lives in Lisbon now", "my sister Emma moved to Porto", "my
# brother works at Acme". The fact is keyed under them (``Emma/location``), not the speaker.
THIRD: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"{WHO} (?:now |still )?(?:lives|is living) in\s+{PLACE}{PLACE_END}"), "location"),
    (
        re.compile(rf"{WHO} (?:has |just |finally )*(?:moved|is moving|relocated) to\s+{PLACE}{PLACE_END}"),
        "location",
    ),
    (re.compile(rf"{WHO} (?:now |still )?works (?:at|for)\s+{OBJ}{END}"), "employer"),
    (re.compile(rf"{WHO} (?:now |still )?works as an?\s+{OBJ}{END}"), "occupation"),
]
# someone else's move ahead ("Emma will be moving to Porto next month": a plan only with a date), or called
# off ("Emma isn't moving to Porto after all", "my brother has decided not to move")
THIRD_PLANNED: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"{WHO}(?: will|'ll| is going to)(?: be)? {_MOVE} to\s+"
            rf"{PLACE}{PLACE_END}"
        ),
        "location",
    ),
]
# where a plan called off without its place or job ends: the clause ("I've decided not to move.", "the move is
# off, sadly"), not an object or a time ("I'm not moving the couch", "the move is off to a good start")
OFF_END = r"(?=(?:\s+there)?(?:\s+(?:after all|any ?more|either|for now))?\s*(?:[.,;!?\n]|$))"
# a verb form without its place ends its sentence, or says "after all": "I'm not moving." (not "I'm not
# moving, this sofa is too comfy", "I decided to stay, the party was too good")
VERB_OFF_END = (
    r"(?=(?:\s+there)?(?:\s+(?:after all|any ?more|either|for now)\s*(?:[.,;!?\n]|$)|\s*(?:[.;!?\n]|$)))"
)
_UNTIL = r"\s+(?:until|till|before)\b"
_PUT_OFF = rf"(?!{_UNTIL})"  # "not moving to Leeds until June" is put off, not off
_THIRD_NOT = r"(?:'s not| isn't| is not| won't be| will not be)"
THIRD_WITHDRAWN: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"{WHO}(?:{_THIRD_NOT}| is no longer|(?: has)? decided not to)"
            rf" {_MOVE}(?:(?> to\s+{PLACE}{PLACE_END}){_PUT_OFF}|{VERB_OFF_END})"
        ),
        "location",
    ),
]
# someone else's plan put off to a new date ("Emma isn't moving to Porto until June"): see PUT_OFF
THIRD_PUT_OFF: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"{WHO}{_THIRD_NOT}"
            rf" {_MOVE}(?: to\s+{NAMED}{PLACE})?(?={_UNTIL})"
        ),
        "location",
    ),
]
# A change stated in the future tense ("I'll be moving to Oslo next month", "I'm starting my new job at
# Spotify on Monday", "I start work at the BBC next week"): a fact only as a plan with a date
# (graphmem.model.planned); without one ("I'll move to Oslo one day") it is not a fact yet. As for a job
# started, only a job or work names an employer ("I'll start at the gym", "I'm joining Tom" do not).
WILL = r"\bI(?:'ll| will|'m going to| am going to|'m gonna)(?: be)?"
_WE_WILL = rf"{HOUSEHOLD}(?:'ll| will|'re going to| are going to|'re gonna)(?: be)?"
PLANNED: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"(?:{WILL} {_MOVE}|{_WE_WILL} (?:moving|move) (?:house|home))"
            rf"{MOVE_TO}"
        ),
        "location",
    ),
    (  # "From next month I'll be living in Oslo"
        re.compile(
            rf"(?:{WILL}|{_WE_WILL}) (?:living|live) in\s+(?=(?:the )?[A-Z])(?>{PLACE}{PLACE_END})"
            rf"(?![^.,;!?\n]*\b(?:for the|for (?:a|\w+) (?:days?|weeks?|months?)|until|till|forever)\b)"
        ),
        "location",
    ),
    (
        re.compile(
            rf"(?:{WILL}|\bI(?:'m| am)|\bI) start(?:ing)? (?:(?:a |my |the )?(?:new )?job|work(?:ing)?) "
            rf"(?:at|with|for)\s+(?!(?:{STOP})\b){OBJ}{END}"
        ),
        "employer",
    ),
    (  # a job taken that starts later: "I've accepted a job at Google, starting in January", "I got an
        # offer from Monzo and I start on the 4th" (read up to the verb: a date after it is the start's; not
        # "I've been offered a role": not taken)
        re.compile(
            rf"{SPEAKER} (?:got|accepted|landed|taken|took|signed) (?:(?:a |an |the )?"
            rf"(?:new )?(?:job |work )?offer (?:at|with|from)|{JOB}(?:at|with)|(?:a |the )?(?:new )?(?:role|"
            rf"position) (?:at|with))\s+{NAMED}{OBJ}{END}[^.!?;\n]{{0,30}}?\b(?:I(?:'ll| will)? start|I'm "
            rf"starting|starting|start(?:s|ing)? (?:on|in|from|next)|beginning)\b"
            r"(?!\s+(?:as|out|off|with)\b)"  # a role, not a date: "starting as a junior engineer"
        ),
        "employer",
    ),
]
# A plan called off: "I'm not moving to Manchester after all", "I won't be moving", "I've decided not to move
# to Oslo", "the move to Oslo is off", "I turned down the job at Spotify", "I'm not starting at Spotify after
# all". The key's plan not started yet (the one naming the value, or any when none is named) is withdrawn
# (graphmem.model.fact_endings.plan_withdraw); without one nothing changes.
_FELL_THROUGH = (
    r"(?:(?:has |had )?(?:fell|fallen) through|(?:was|has been|got|is) (?:withdrawn|rescinded|pulled))"
)
_IS_OFF = r"(?:is|'s|was|got|has been) (?:off|cancel+ed|called off|not happening)"
# a name as one writes it: "Manchester", "New York", "Monzo" (not "They", "the")
_PROPER = r"(?!(?:They|He|She|It|We|You|The|This|That)\b)(?P<obj>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,3})"
NOT_WILL = (
    r"\b(?:I(?:'m not| am not|'m no longer| am no longer)|(?:I|[Ww]e)(?: won't| will not)|"
    r"[Ww]e(?:'re not| aren't| are not))(?: be)?(?: going to)?|"
    r"\bI(?:'ve| have)? decided not to"
)
WITHDRAWN: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"(?:{NOT_WILL}) {_MOVE}(?: house| back)?"
            rf"(?:(?> to\s+{PLACE}{PLACE_END}){_PUT_OFF}|{VERB_OFF_END})"
        ),
        "location",
    ),
    (
        re.compile(rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:move|relocation)(?: to\s+{PLACE})? {_IS_OFF}{OFF_END}"),
        "location",
    ),
    (  # the place before the move: "The Manchester move is off", "the Manchester move fell through"
        re.compile(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) {_PROPER} (?:move|relocation) "
            rf"(?:{_IS_OFF}{OFF_END}|{_FELL_THROUGH}{END})"
        ),
        "location",
    ),
    (  # "I didn't end up moving to Sheffield", "we never moved"
        re.compile(
            rf"\b(?:I|[Ww]e) (?:didn't|did not|never) (?:end up |actually |get to )?(?:mov(?:e|ing)|"
            rf"relocat(?:e|ing))(?:(?> to\s+{PLACE}{PLACE_END}){_PUT_OFF}|{VERB_OFF_END})"
        ),
        "location",
    ),
    (  # staying where one is, after all: "We've decided to stay in Glasgow after all" (not "The party was
        # great, I ended up staying", "It's snowing so I'm staying put")
        re.compile(
            r"\b(?:I|[Ww]e)(?:'ve| have|'m|'re| am| are)? (?:ended up staying|decided to stay|staying put|"
            r"stayed put)(?: here| in\s+(?=[A-Z])[^.,;!?\n]{2,40}?)?(?=\s+after all)"
        ),
        "location",
    ),
    (
        re.compile(
            rf"\bI(?:'ve| have)? (?:called off|cancel+ed) (?:the|my|our) (?:move|relocation)"
            rf"(?: to\s+{PLACE}{PLACE_END}|{OFF_END})"
        ),
        "location",
    ),
    (
        re.compile(
            rf"(?:{NOT_WILL}) (?:start(?:ing)?|tak(?:e|ing)|join(?:ing)?) (?:(?:a |my |the )?(?:new )?"
            rf"(?:job|position|role|work(?:ing)?) )?(?>(?:at|with|for)\s+{OBJ}{END}){_PUT_OFF}"
        ),
        "employer",
    ),
    (  # "I'm not taking the job after all" (not "I'm not taking the offer", which may be anything's)
        re.compile(
            rf"(?:{NOT_WILL}) (?:tak(?:e|ing)|accept(?:ing)?|start(?:ing)?) (?:the|that|this) (?:new )?"
            rf"(?:job(?: offer)?|position|role)(?=\s+(?:after all|any ?more))"
        ),
        "employer",
    ),
    (  # "The move to Oslo fell through", "the job offer at Spotify was withdrawn because of the visa"
        re.compile(rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:move|relocation)(?: to\s+{PLACE})? {_FELL_THROUGH}{END}"),
        "location",
    ),
    (  # a job, a role or an offer from an employer: not "our offer on the house fell through"
        re.compile(
            rf"\b(?:[Tt]he|[Mm]y) (?:new )?(?:job offer|(?:job(?: offer)?|position|role|offer) "
            rf"(?:at|with|from)\s+{OBJ}) {_FELL_THROUGH}{END}"
        ),
        "employer",
    ),
    (  # "Monzo withdrew the offer"
        re.compile(
            rf"\b{_PROPER} (?:withdrew|rescinded|pulled|cancel+ed) (?:the|my|their|its) (?:job )?offer{END}"
        ),
        "employer",
    ),
    (  # "I turned the Monzo offer down"
        re.compile(
            rf"\bI(?:'ve| have)? (?:turned down|declined|rejected|turned) (?:the|their) {_PROPER} offer"
            rf"(?: down)?{END}"
        ),
        "employer",
    ),
    (  # unnamed, only a job's own words: "I declined the position." (not "the offer", "the role of best man")
        re.compile(
            rf"\bI(?:'ve| have)? (?:turned down|declined|rejected) (?:the |their |a )?(?:(?:job |work )?"
            rf"(?:offer|job|position|role) (?:at|with|from)\s+{OBJ}{END}|(?:(?:job |work )offer|job|"
            rf"position|role){OFF_END})"
        ),
        "employer",
    ),
]
# A plan put off to a new date ("the move got pushed back to June", "I'm not moving to Leeds until March", "my
# start date at Spotify was moved to May"): the key's pending plan (naming the value, or any) is withdrawn and
# its value planned again from the date the clause names after the verb (graphmem.model.planned.moved_start),
# or, said of a value with no plan pending, planned from it; put off with no date ("the move has been
# postponed") it is called off. A shift relative to the old date ("pushed back a month") is not read.
_DELAYED = r"(?:pushed back|pushed|postponed|delayed|put off|moved|rescheduled|bumped(?: back)?)"
_WAS = r"(?:has been|had been|was|got|is|'s been|'s)(?: now| just)?"
_JOB_WORDS = r"(?:a |my |the )?(?:new )?(?:job|position|role|work(?:ing)?)"
_DELAYED_TO = rf"(?:(?=(?: back)? (?:to|until|till)\b)|{OFF_END})"
_NOT_A_DATE = (
    r"(?!(?i:january|february|march|april|may|june|july|august|september|october|november|december|next|"
    r"the (?:end|start|beginning|\d)|\d|early|mid|late|spring|summer|autumn|fall|winter|later|after)\b)"
)
PUT_OFF: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:move|relocation)(?: to\s+{NAMED}{PLACE})? {_WAS} {_DELAYED}"
            rf"{_DELAYED_TO}"
        ),
        "location",
    ),
    (
        re.compile(
            rf"\b(?:I|[Ww]e)(?:'ve| have| had)? (?:postponed|delayed|pushed back|put off|rescheduled) "
            rf"(?:the|my|our) (?:move|relocation)(?: to\s+{_NOT_A_DATE}{NAMED}{PLACE})?{_DELAYED_TO}"
        ),
        "location",
    ),
    (
        re.compile(
            rf"\b(?:[Mm]y|[Tt]he) start(?:ing)? date(?: (?:at|with)\s+{NAMED}{OBJ})? {_WAS} {_DELAYED}"
            rf"{_DELAYED_TO}"
        ),
        "employer",
    ),
]
# "I'm not moving to Leeds until June", "I'm not starting at Spotify until March": put off to a date (a fact
# only with one: "I'm not moving until you apologise" is none)
_I_NOT_WILL = r"\bI(?:'m not| am not| won't| will not)(?: be)?(?: going to)?"  # not "we": a team's move too
PUT_OFF_UNTIL: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"{_I_NOT_WILL} {_MOVE}(?: house| back)?(?: to\s+{NAMED}{PLACE})?"
            rf"(?={_UNTIL})"
        ),
        "location",
    ),
    (  # a job's words, or a name: not "I'm not starting with the new diet until Monday"
        re.compile(
            rf"(?:{NOT_WILL}) (?:start(?:ing)?|join(?:ing)?) (?:{_JOB_WORDS} (?:at|with|for)\s+|at\s+{NAMED})"
            rf"{OBJ}(?={_UNTIL})"
        ),
        "employer",
    ),
]
# Where the speaker stays, said as how a plan ended ("I ended up staying in Leeds", "In the end I stayed in
# Bath", "we've decided to stay in Glasgow", "I'm staying in Leeds now"; the sentence says "ended up",
# "decided", "in the end", ...: STAY_CUE): the pending plan that would replace that place is withdrawn, not a
# plan elsewhere ("I stayed in Paris for a week" on a trip, with no cue, is nothing)
STAYED = re.compile(
    rf"(?:\b(?:I|[Ww]e)(?:'ve| have|'m|'re| am| are)?(?! (?:not|no longer|never)\b)(?: \w+){{0,2}} "
    rf"(?:stay(?:ing|ed)?|remain(?:ing|ed)?) in|(?:{NOT_WILL}) (?:be )?moving away from)\s+"
    rf"{NAMED}{PLACE}{PLACE_END}"
)
STAY_CUE = re.compile(
    r"\b(?:ended up|decided|chose|in the end|eventually|after all|instead|(?<!for )(?<!right )now|"
    r"for good)\b",
    re.I,
)
# stated in the present progressive ("I'm moving", "Emma is relocating"; not "I was moving boxes")
PROGRESSIVE = re.compile(r"(?:'m|\b(?:am|is|are)|'re)(?: \w+ly| now| just)? (?:moving|relocating|starting)\b")
# a new value of a key whose plan it replaces: "instead", or "instead of" what the plan names ("I'm moving to
# Oslo instead of Manchester"; "I work at Acme instead of freelancing" names no plan; "instead of February"
# names a date, not a value; "instead of going to Manchester", "instead of joining Spotify" name the plan's
# value)
_INSTEAD_OF_DOING = (
    r"(?:(?:going|moving|relocating|heading)(?: back)? to\s+|(?:working|starting)(?: work| a new job)? "
    r"(?:at|with|for)\s+|joining\s+)?"
)
INSTEAD = re.compile(rf"\binstead\b(?: of\s+{_INSTEAD_OF_DOING}{_NOT_A_DATE}{OBJ}{END})?", re.I)
PLANNABLE = frozenset({"location", "employer"})  # the keys a plan can be stated for (PLANNED)
AFTER_ALL = re.compile(r"\s+(?:after all|any ?more|either|now)$", re.I)

# A value said by mistake, corrected: "Sorry, I meant Liverpool, not Manchester", "Turns out it's Leeds, not
# Leicester", "I said Monzo but I meant Revolut". The key whose current value or pending plan the wrong name
# names has the right one in its place (graphmem.model.fact_endings.plan_correction); naming none, nothing.
_NAME = r"(?!(?:I|They|He|She|It|We|You|The|This|That)\b)[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,3}"
_AT = r"(?:in |at |to |for |with )?"
CORRECTED = [
    re.compile(
        r"\b(?:[Ss]orry|[Oo]ops|[Cc]orrection|[Aa]ctually|[Tt]urns out|I mean|I meant|[Mm]y (?:bad|mistake)|"
        r"[Tt]ypo)\b[,:;]?(?: I meant| I mean| it's| it is| it was| that's| that should be| should be)?\s+"
        rf"{_AT}(?P<obj>{_NAME}),? not {_AT}(?P<wrong>{_NAME})\b"
        # the correction ends its clause ("..., autocorrect got me"): not "Actually it's Leeds, not York,
        # where my sister lives", "Turns out Leeds, not York, has the oldest pub"
        # nor "..., for the concert", "..., my sister lives there": after a comma, words about the slip only
        r"(?=\s*(?:[.!?;)\n]|$)|,\s*(?:and|but|so|sorry|my bad|oops|lol|haha|ha|autocorrect|auto-correct|"
        r"typo|silly me|I (?:always|keep|mixed|mix|typed|misspelled|misspelt|meant|mean)|"
        r"I (?:was|wasn't) (?:looking|thinking|paying attention|confused|distracted)|"
        r"(?:it|that) was (?:a )?typo)\b|\s+(?:and|but|so)\b)"
    ),
    re.compile(rf"\bI (?:said|wrote|typed|put) (?P<wrong>{_NAME}),? but I meant {_AT}(?P<obj>{_NAME})\b"),
]

# The household's move in any words ("We moved to Harrogate", "Emma and I are moving to Bath in March"): a
# home only where the place is one (graphmem.model.places; "we moved to Slack" is a team's tool)
HOUSEHOLD_MOVED = re.compile(
    rf"(?:{US}|{HOUSEHOLD}(?P<will>'ll| will)(?: be)?) (?:moved|moving|relocated|relocating|"
    rf"(?P<now>move|relocate)){MOVE_TO}(?!{FOR_A_WHILE})"
)
