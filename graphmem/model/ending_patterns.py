"""States that end, without an LLM (pure): "I no longer live in Leeds", "I quit my job", "I got laid off from
Acme". The value named ends (:func:`graphmem.model.fact_endings.plan_end`); a pattern without a value
("I quit my job", "I don't work there any more") ends the current one, whatever it is. What they give is
:func:`graphmem.model.fact_patterns.extract`'s."""

from __future__ import annotations

import re

from graphmem.model.pattern_pieces import (
    END,
    FOR_A_WHILE,
    MONTH_NAME,
    OBJ,
    PLACE,
    PLACE_END,
    STOP,
    WEEKDAY,
    compile_rule,
)
from graphmem.model.places import EVERYDAY

__all__ = ["ENDINGS", "ENDINGS_CHECK", "ENDING_CUES"]

# where an unnamed ending ends: the clause or a time ("I quit my job yesterday"; not "I lost my job interview
# notes", "I retired my old laptop", "I've retired for the night")
_SAID_END = rf"(?=\s+(?:{STOP})\b|[.,;!?\n]|$)"
ENDINGS: list[tuple[re.Pattern[str], str]] = [
    (compile_rule(rf"\bI (?:no longer|don't|do not) live in\s+{PLACE}{PLACE_END}"), "location"),
    (  # "I've moved out of London", "I moved away from Leeds" (not "I left London at 6", a trip; not "moved
        # out of my flat", which may stay in its town)
        compile_rule(
            rf"\bI(?:'ve| have)? (?:just |finally )?moved (?:out of|away from)\s+(?=[A-Z])"
            rf"(?>{PLACE}(?=\s+(?:to|{STOP}|for|with)\b|[.,;!?\n]|$))(?!\s+to\b|{FOR_A_WHILE})"
        ),
        "location",
    ),
    (compile_rule(rf"\bI (?:no longer|don't|do not) work (?:at|for)\s+{OBJ}{END}"), "employer"),
    (compile_rule(rf"\bI(?:'m| am) no longer (?:at|with|working (?:at|for))\s+{OBJ}{END}"), "employer"),
    (  # "Not working at Ford anymore", "I'm not working for Acme any more"
        compile_rule(  # a firm's name (not "at the weekend", "at all", "for free", "at Christmas")
            r"(?:^|[.!?]\s+|\bI(?:'m| am) )[Nn]ot working (?:at|for)\s+(?:the )?(?=[A-Z])"
            rf"(?!(?:Christmas|Easter|New Year|Halloween|Thanksgiving)\b){OBJ}\s+any ?more\b"
        ),
        "employer",
    ),
    (
        compile_rule(  # "I resigned from Foyles last month"
            rf"\bI(?:'ve| have)? (?:left|quit|resigned from) (?:my job at\s+)?(?!(?:{STOP}|my job)\b)"
            rf"{OBJ}{END}"
        ),
        "employer",
    ),
    (  # no job now, unnamed: "I'm not working yet", "I'm unemployed lol", "I'm between jobs" (not "I'm not
        # working today", "... on that", "... for free")
        compile_rule(
            r"\bI(?:'m| am) (?:currently |still |now )?(?:not working(?: yet| at the moment| right now| at "
            r"all)?|unemployed|between jobs|out of work(?! mode\b)|jobless)"
            r"(?!\s+(?:at(?! the moment| present)|for|on|with|in|from|today|tonight|tomorrow|this|next|until|"
            # (a day's, not a job's: "I'm not working right now, on my lunch")
            r"till|early)\b|-|[^.!?\n]*\b(?:lunch|break|shift|off sick|on leave|holiday)\b)"
        ),
        "employer",
    ),
    (  # "I got laid off from Acme", "I was fired last week"
        compile_rule(
            rf"\bI (?:got|was|have been|'ve been) (?:laid off|fired|let go|made redundant)"
            rf"(?: (?:from|by|at)\s+(?!(?:{STOP})\b){OBJ}{END}|(?=\s+(?:{STOP})\b|[.,;!?\n]|$))"
        ),
        "employer",
    ),
    (  # the job, unnamed: "I quit my job yesterday", "I don't work there any more", "I've retired", "I no
        # longer work!", "Retired from the council in October", "my last day was Friday"
        compile_rule(
            rf"\bI(?:'ve| have)? (?:just )?(?:quit|left|lost) my job{_SAID_END}|"
            r"\b(?:[Tt]hat's|[Tt]hat is) me retired\b|\bno job (?:rn|right now|at the moment|now)\b|"
            r"\bI (?:don't|do not) work there any ?more\b|\bI (?:no longer|don't|do not) work(?: any ?more)?"
            r"(?=\s*[.!;\n]|$)|"
            # (not "from the choir"; "I'm now retired from LTA already")
            rf"\bI(?:'ve| have|'m| am)?(?: just| finally| officially| now)? retired"
            rf"(?: from (?:work|(?:the |my )?(?:[A-Z][\w&'-]*|council|company|firm|job|bank|school|hospital|"
            rf"police|army|navy|NHS)(?: [A-Z][\w&'-]*)*))?(?!\s+from\b)(?: already)?{_SAID_END}|"
            r"\b(?:[Tt]oday|[Yy]esterday|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day) was my last day\b|"
            r"\b[Mm]y last day (?:at [^.,;!?\n]{2,40}? (?:was|is today)|(?:is|was) (?:today|yesterday)|was "
            # a bare "my last day was" only with its day (not "my last day was lovely", "... was a blur")
            rf"(?=(?:on |the )?(?:\d|(?i:{WEEKDAY}|last|this|{MONTH_NAME})\b)))"
        ),
        "employer",
    ),
    (  # "My Pfizer contract finished last week", "my contract at Acme ended" (not "my phone contract")
        compile_rule(
            r"\b[Mm]y (?:(?P<obj>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*)*) contract|contract (?:at|with)\s+"
            r"(?P<firm>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*)*))"
            r"(?: (?:has )?(?:finished|ended|ran out|came to an end|is over|was terminated)|'s over)\b"
            # a service's: "My EE contract ended, so I switched to Three" (a job's names no provider)
            r"(?![^.!?\n]*\b(?:switch|phone|sim|broadband|tariff|provider|deal|upgrade)\w*)"
        ),
        "employer",
    ),
    (  # "I've moved out of my place in York", "We've moved out of our Auckland place" (a home named by its
        # place; not "moved out of my flat", whose town may stay, nor a move within the town)
        compile_rule(
            r"\b(?:I|[Ww]e)(?:'ve| have)? (?:just |finally )?(?:moved out of|"
            r"handed (?:back|in) the keys (?:to|of|for)) (?:my|our) "
            r"(?:(?P<obj>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*) (?:place|flat|house|apartment|home)|"
            r"(?:place|flat|house|apartment|home) in\s+(?P<town>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*))"
            # not a move within the town: "... and into a bigger one", "... to a new place nearby"
            r"(?![^.!?\n]*\b(?:into|to (?:a|an|our|my|the|another))\b)"
        ),
        "location",
    ),
]
# the last day said without "my" or ahead, in a message about leaving a job or naming the firm: "handed in my
# notice, last day was friday", "Resigned today. Last day at Takealot is the 31st" (a day ahead: the job ends
# then, graphmem.model.planned.ended_by; not "Last day was Friday, the beach was lovely" on a holiday)
_LAST_DAY = compile_rule(
    r"(?:^|[.!?,;]\s*|\b(?:and|so) )(?:[Mm]y )?[Ll]ast day"
    r"(?: (?:at|with) (?P<obj>[A-Z][\w&'-]*(?: [A-Z][\w&'-]*)*))?"
    rf" (?:was|is|will be)(?= (?:on )?(?:the )?(?:\d|(?i:{WEEKDAY}|{MONTH_NAME})\b))"
)
ENDINGS.append((_LAST_DAY, "employer"))
_EVERYDAY = "|".join(re.escape(w) for w in sorted(EVERYDAY, key=len, reverse=True))
ENDINGS += [
    (  # a town typed in lower case, without "I": "moved out of brighton last week" (a place only:
        # graphmem.model.fact_changes.endings; it ends the home only where it names it)
        compile_rule(
            r"(?:^|[.!?]\s+|\bI(?:'ve| have)? (?:just |finally )?)(?i:moved) (?:out of|away from)\s+"
            rf"(?!(?:{_EVERYDAY})\b)(?P<obj>[a-z][\w'-]*)"
            rf"(?=\s+(?:{STOP}|for|with)\b|[.,;!?\n]|$)(?!\s+to\b|{FOR_A_WHILE})"
        ),
        "location",
    ),
    (  # no home now: "..., no fixed address for now", "I'm of no fixed abode" (not "a friend with no fixed
        # address", "He's got no job and no fixed address")
        compile_rule(
            r"(?:^|[.,;!?]\s*|\b(?:I'm|I am|we're|we are|I have|we have|now)\s+)(?:of |currently |now )?"
            r"no fixed (?:address|abode)\b"
        ),
        "location",
    ),
    (  # said of the employer, with a verb not in the past: "they fire me from Tesco yesterday", "they sacked
        # me last week"
        compile_rule(
            r"\b(?:[Tt]hey|[Tt]he company|[Mm]y (?:boss|company|employer))(?: just)? "
            rf"(?:fire[ds]?|sack(?:ed|s)?|let) me(?: go)?"
            rf"(?: (?:from|at)\s+(?=[A-Z])(?!(?:{STOP})\b){OBJ}{END}|(?! (?:from|at|off) )(?:{_SAID_END}))"
        ),
        "employer",
    ),
]
# what else a pattern needs in its message, by the pattern's id
ENDING_CUES: dict[int, re.Pattern[str]] = {
    id(_LAST_DAY): compile_rule(
        r"\b(?:notice|resign\w*|quit|job|work|boss|leaving do|last day (?:at|with) (?-i:[A-Z]))", re.I
    ),
}
# every pattern above holds one of these: a turn without any is not searched
ENDINGS_CHECK = compile_rule(
    r"\b(?:no longer|any ?more|left|quit|lost|laid off|fired|let go|redundant|[Rr]etired|moved (?:out|away)|"
    r"don't work|do not work|[Ll]ast day|contract|keys|[Nn]ot working|unemployed|between jobs|out of work|"
    r"resigned|"
    r"me retired|no job|"
    r"jobless|no fixed|fire[ds]?|sack\w*|let me go)\b"
)
