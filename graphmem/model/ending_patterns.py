"""States that end, without an LLM (pure): "I no longer live in Leeds", "I quit my job", "I got laid off from
Acme". The value named ends (:func:`graphmem.model.fact_endings.plan_end`); a pattern without a value
("I quit my job", "I don't work there any more") ends the current one, whatever it is. What they give is
:func:`graphmem.model.fact_patterns.extract`'s."""

from __future__ import annotations

import re

from graphmem.model.pattern_pieces import END, FOR_A_WHILE, OBJ, PLACE, PLACE_END, STOP

__all__ = ["ENDINGS", "ENDINGS_CHECK"]

# where an unnamed ending ends: the clause or a time ("I quit my job yesterday"; not "I lost my job interview
# notes", "I retired my old laptop", "I've retired for the night")
_SAID_END = rf"(?=\s+(?:{STOP})\b|[.,;!?\n]|$)"
ENDINGS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\bI (?:no longer|don't|do not) live in\s+{PLACE}{PLACE_END}"), "location"),
    (  # "I've moved out of London", "I moved away from Leeds" (not "I left London at 6", a trip; not "moved
        # out of my flat", which may stay in its town)
        re.compile(
            rf"\bI(?:'ve| have)? (?:just |finally )?moved (?:out of|away from)\s+(?=[A-Z])"
            rf"(?>{PLACE}(?=\s+(?:to|{STOP}|for|with)\b|[.,;!?\n]|$))(?!\s+to\b|{FOR_A_WHILE})"
        ),
        "location",
    ),
    (re.compile(rf"\bI (?:no longer|don't|do not) work (?:at|for)\s+{OBJ}{END}"), "employer"),
    (re.compile(rf"\bI(?:'m| am) no longer (?:at|with|working (?:at|for))\s+{OBJ}{END}"), "employer"),
    (  # "Not working at Ford anymore", "I'm not working for Acme any more"
        re.compile(  # a firm's name (not "at the weekend", "at all", "for free", "at Christmas")
            r"(?:^|[.!?]\s+|\bI(?:'m| am) )[Nn]ot working (?:at|for)\s+(?:the )?(?=[A-Z])"
            rf"(?!(?:Christmas|Easter|New Year|Halloween|Thanksgiving)\b){OBJ}\s+any ?more\b"
        ),
        "employer",
    ),
    (
        re.compile(rf"\bI(?:'ve| have)? (?:left|quit) (?:my job at\s+)?(?!(?:{STOP}|my job)\b){OBJ}{END}"),
        "employer",
    ),
    (  # "I got laid off from Acme", "I was fired last week"
        re.compile(
            rf"\bI (?:got|was|have been|'ve been) (?:laid off|fired|let go|made redundant)"
            rf"(?: (?:from|by|at)\s+(?!(?:{STOP})\b){OBJ}{END}|(?=\s+(?:{STOP})\b|[.,;!?\n]|$))"
        ),
        "employer",
    ),
    (  # the job, unnamed: "I quit my job yesterday", "I don't work there any more", "I've retired"
        re.compile(
            rf"\bI(?:'ve| have)? (?:just )?(?:quit|left|lost) my job{_SAID_END}|"
            r"\bI (?:don't|do not) work there any ?more\b|"
            rf"\bI(?:'ve| have)? (?:just )?retired(?: from work)?{_SAID_END}"
        ),
        "employer",
    ),
]
# every pattern above holds one of these: a turn without any is not searched
ENDINGS_CHECK = re.compile(
    r"\b(?:no longer|any ?more|left|quit|lost|laid off|fired|let go|redundant|retired|moved (?:out|away))\b"
)
