"""Changes stated ahead, and called off, without an LLM (pure): the patterns that make a fact a plan ("I'll be
moving to Oslo next month", "Emma will be moving to Porto") or withdraw one ("I'm not moving to Manchester
after all"). What they give is :func:`graphmem.model.fact_patterns.extract`'s; when a plan starts is
:mod:`graphmem.model.planned`'s."""

from __future__ import annotations

import re

from graphmem.model.pattern_pieces import END, MOVE_TO, OBJ, PLACE, PLACE_END, STOP, WHO

__all__ = [
    "AFTER_ALL",
    "INSTEAD",
    "PLANNABLE",
    "PLANNED",
    "PROGRESSIVE",
    "THIRD_PLANNED",
    "THIRD_WITHDRAWN",
    "WITHDRAWN",
]

# someone else's move ahead ("Emma will be moving to Porto next month": a plan only with a date), or called
# off ("Emma isn't moving to Porto after all", "my brother has decided not to move")
THIRD_PLANNED: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"{WHO}(?: will|'ll| is going to)(?: be)? (?:moving|relocating|move|relocate) to\s+"
            rf"{PLACE}{PLACE_END}"
        ),
        "location",
    ),
]
# where a plan called off without its place or job ends: the clause ("I've decided not to move.", "the move is
# off, sadly"), not an object or a time ("I'm not moving the couch", "the move is off to a good start")
OFF_END = r"(?=(?:\s+there)?(?:\s+(?:after all|any ?more|either|for now))?\s*(?:[.,;!?\n]|$))"
_PUT_OFF = r"(?!\s+(?:until|till|before)\b)"  # "not moving to Leeds until June" is put off, not off
THIRD_WITHDRAWN: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"{WHO}(?:'s not| isn't| is not| won't be| will not be| is no longer|(?: has)? decided not to)"
            rf" (?:moving|relocating|move|relocate)(?: to\s+{PLACE}{PLACE_END}{_PUT_OFF}|{OFF_END})"
        ),
        "location",
    ),
]
# A change stated in the future tense ("I'll be moving to Oslo next month", "I'm starting my new job at
# Spotify on Monday", "I start work at the BBC next week"): a fact only as a plan with a date
# (graphmem.model.planned); without one ("I'll move to Oslo one day") it is not a fact yet. As for a job
# started, only a job or work names an employer ("I'll start at the gym", "I'm joining Tom" do not).
WILL = r"\bI(?:'ll| will|'m going to| am going to|'m gonna)(?: be)?"
PLANNED: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(rf"{WILL} (?:moving|relocating|move|relocate){MOVE_TO}"),
        "location",
    ),
    (
        re.compile(
            rf"(?:{WILL}|\bI(?:'m| am)|\bI) start(?:ing)? (?:(?:a |my |the )?(?:new )?job|work(?:ing)?) "
            rf"(?:at|with|for)\s+(?!(?:{STOP})\b){OBJ}{END}"
        ),
        "employer",
    ),
]
# A plan called off: "I'm not moving to Manchester after all", "I won't be moving", "I've decided not to move
# to Oslo", "the move to Oslo is off", "I turned down the job at Spotify", "I'm not starting at Spotify after
# all". The key's plan not started yet (the one naming the value, or any when none is named) is withdrawn
# (graphmem.model.fact_endings.plan_withdraw); without one nothing changes.
NOT_WILL = (
    r"\bI(?:'m not| am not|'m no longer| am no longer| won't| will not)(?: be)?(?: going to)?|"
    r"\bI(?:'ve| have)? decided not to"
)
WITHDRAWN: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            rf"(?:{NOT_WILL}) (?:moving|relocating|move|relocate)(?: house| back)?"
            rf"(?: to\s+{PLACE}{PLACE_END}{_PUT_OFF}|{OFF_END})"
        ),
        "location",
    ),
    (
        re.compile(
            rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:move|relocation)(?: to\s+{PLACE})? (?:is|'s) "
            rf"(?:off|cancel+ed|not happening){OFF_END}"
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
            rf"(?:job|position|role|work(?:ing)?) )?(?:at|with|for)\s+{OBJ}{END}{_PUT_OFF}"
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
# stated in the present progressive ("I'm moving", "Emma is relocating"; not "I was moving boxes")
PROGRESSIVE = re.compile(r"(?:'m|\b(?:am|is|are)|'re)(?: \w+ly| now| just)? (?:moving|relocating|starting)\b")
INSTEAD = re.compile(r"\binstead\b", re.I)  # a new value of a key whose plan it replaces
PLANNABLE = frozenset({"location", "employer"})  # the keys a plan can be stated for (PLANNED)
AFTER_ALL = re.compile(r"\s+(?:after all|any ?more|either|now)$", re.I)
