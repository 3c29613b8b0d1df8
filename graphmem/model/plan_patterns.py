"""Changes stated ahead without an LLM (pure): the patterns that make a fact a plan ("I'll be moving to Oslo
next month", "Emma will be moving to Porto"), someone else's plan called off, a stay, a plan's value
corrected or changed; the speaker's own plans called off or put off are
:mod:`graphmem.model.calloff_patterns`'s. What they give is :func:`graphmem.model.fact_patterns.extract`'s;
when a plan starts is :mod:`graphmem.model.planned`'s."""

from __future__ import annotations

import re

from graphmem.model.pattern_pieces import (
    END,
    FIRM_NAME,
    FOR_A_WHILE,
    HOUSEHOLD,
    JOB,
    MONTH,
    MONTH_NAME,
    MOVE_TO,
    NAMED,
    NAMED_PLACE,
    OBJ,
    PLACE,
    PLACE_END,
    SEASON,
    SPEAKER,
    STOP,
    US,
    WEEKDAY,
    WHEN,
    WHO,
    compile_rule,
)

__all__ = [
    "AFTER_ALL",
    "BOUGHT",
    "CORRECTED",
    "HOUSEHOLD_MOVED",
    "INSTEAD",
    "JOINING",
    "MOVE_VERB",
    "MOVING_ALONE",
    "NOT_A_DATE",
    "NOT_PUT_OFF",
    "NOT_WILL",
    "OFF_END",
    "PLANNABLE",
    "PLANNED",
    "PROGRESSIVE",
    "REPLANNED",
    "SIGNED",
    "STAYED",
    "STAY_CUE",
    "THIRD",
    "THIRD_PLANNED",
    "THIRD_PUT_OFF",
    "THIRD_WITHDRAWN",
    "UNTIL",
    "VERB_OFF_END",
]

MOVE_VERB = r"(?:moving|relocating|move|relocate)"
# a month's or a weekday's name, or "next": "from September", "on Monday", "from next week"
_MONTH_OR_DAY = rf"(?i:{MONTH}|{WEEKDAY}|next)\b"
# Someone else's place or work, named: "Emma lives in Lisbon now", "my sister Emma moved to Porto", "my
# brother works at Acme". The fact is keyed under them (``Emma/location``), not the speaker.
THIRD: list[tuple[re.Pattern[str], str]] = [
    (compile_rule(rf"{WHO} (?:now |still )?(?:lives|is living) in\s+{PLACE}{PLACE_END}"), "location"),
    (
        compile_rule(rf"{WHO} (?:has |just |finally )*(?:moved|is moving|relocated) to\s+{PLACE}{PLACE_END}"),
        "location",
    ),
    (compile_rule(rf"{WHO} (?:now |still )?works (?:at|for)\s+{OBJ}{END}"), "employer"),
    (compile_rule(rf"{WHO} (?:now |still )?works as an?\s+{OBJ}{END}"), "occupation"),
]
# someone else's move ahead ("Emma will be moving to Porto next month": a plan only with a date), or called
# off ("Emma isn't moving to Porto after all", "my brother has decided not to move")
THIRD_PLANNED: list[tuple[re.Pattern[str], str]] = [
    (
        compile_rule(
            rf"{WHO}(?: will|'ll| is going to)(?: be)? {MOVE_VERB} to\s+"
            rf"{PLACE}{PLACE_END}"
        ),
        "location",
    ),
]
# where a plan called off without its place or job ends: the clause ("I've decided not to move.", "the move is
# off, sadly"), not an object or a time ("I'm not moving the couch", "the move is off to a good start")
OFF_END = (  # (or a dash: "The Bergen move is off - my partner's job fell through")
    r"(?=(?:\s+there)?(?:\s+(?:after all|any ?more|either|for now|indefinitely))?\s*(?:[.,;!?\n]|$|[-–—]\s))"
)
# a verb form without its place ends its sentence, or says "after all": "I'm not moving." (not "I'm not
# moving, this sofa is too comfy", "I decided to stay, the party was too good")
VERB_OFF_END = (
    r"(?=(?:\s+there)?(?:\s+(?:after all|any ?more|either|for now)\s*(?:[.,;!?\n]|$)|\s*(?:[.;!?\n]|$)))"
)
UNTIL = r"\s+(?:until|till|before)\b"
NOT_PUT_OFF = rf"(?!{UNTIL})"  # "not moving to Leeds until June" is put off, not off
_THIRD_NOT = r"(?:'s not| isn't| is not| won't be| will not be)"
THIRD_WITHDRAWN: list[tuple[re.Pattern[str], str]] = [
    (
        compile_rule(
            rf"{WHO}(?:{_THIRD_NOT}| is no longer|(?: has)? decided not to)"
            rf" {MOVE_VERB}(?:(?> to\s+{PLACE}{PLACE_END}){NOT_PUT_OFF}|{VERB_OFF_END})"
        ),
        "location",
    ),
]
# someone else's plan put off to a new date ("Emma isn't moving to Porto until June"): see PUT_OFF
THIRD_PUT_OFF: list[tuple[re.Pattern[str], str]] = [
    (
        compile_rule(
            rf"{WHO}{_THIRD_NOT}"
            rf" {MOVE_VERB}(?: to\s+{NAMED}{PLACE})?(?={UNTIL})"
        ),
        "location",
    ),
]
# A change stated in the future tense ("I'll be moving to Oslo next month", "I'm starting my new job at
# Spotify on Monday", "I start work at the BBC next week"): a fact only as a plan with a date
# (graphmem.model.planned); without one ("I'll move to Oslo one day") it is not a fact yet. As for a job
# started, a job or work names an employer ("I'll start at the gym" does not), or JOINING's name does.
WILL = (  # ("I plan to relocate to Lagos in March", "I'll now be moving ...")
    r"\bI(?:'ll| will|'m going to| am going to|'m gonna|'m planning to| am planning to| plan to| intend to)"
    r"(?: now)?(?: be)?"
)
# a name joined or started at, a date right after it (or after the role): "I'm joining Dyson on 4 January",
# "I start at Ericsson on 1 October", "I'll be joining the BBC as a producer in March"; an employer only
# where the name is an organisation's (graphmem.model.people: not "I'm joining Sarah on Friday", "I start at
# Oxford in October")
JOINING = compile_rule(
    rf"(?:{WILL} (?:join(?:ing)?|start(?:ing)? at)|\bI(?:'m| am)(?: \w+ly| now)? (?:joining|starting at)|"
    # (or after a dash or a comma: "I'm leaving Shopify - starting at the Canada Revenue Agency on ...")
    rf"\bI (?:start at|join)|(?:^|[.!?;]\s+|\s[-—]\s+|,\s+|\b(?:and|so|then) )(?i:starting at|joining)|"
    # "I'm leaving in August to join Microsoft on ...", "I got accepted to join Equity Bank from 1st July"
    rf"(?:\bI(?:'m| am)|,) leaving\b[^.!?\n]{{0,60}}? to join|"
    rf"\bI (?:got|have been|was|'ve been) accepted to join|"
    rf"{SPEAKER} (?:got|have) (?:a |an |my )?(?:[\w-]+ )?(?:job|role|position) lined up (?:at|with))"
    rf"\s+{FIRM_NAME}(?:\s+as an?\s+(?!(?:new |paying )?(?:customer|member|client|patient|guest|student)s?\b)"
    rf"[^.,;!?\n]{{2,40}}?)?(?:\s+in\s+[A-Z][\w'-]*(?: [A-Z][\w'-]*)?)?(?=\s+(?:{WHEN}|next|this|on|from)\b)"
    # a call or a stream joined, not a firm: "I'm joining Google Meet on Monday at 10", "... for the call"; an
    # app, a class or a treatment for a purpose: "I'm joining Duolingo on 1 January to learn Spanish", "I
    # start at Bupa on Monday for physio"
    r"(?![^.!?;\n]*\b(?:at \d|\d(?::\d\d)?\s*(?:am|pm)\b|for the (?:call|meeting|webinar|stream|session)\b|"
    r"to (?:watch|learn|lose|get fit|meet|stream|play|practi[cs]e|train|improve|date|chat|find|try)\b|"
    r"for (?:physio\w*|therapy|treatment|rehab|lessons|classes|a class|a course|a session|my \w+ (?:class|"
    r"course|lesson|session)s?)\b|new year,? new me|binge|family plan|free trial|subscription|hackathon|"
    r"meetup|interview|shop|shopping|for (?:my|our|his|her) (?:mum|mom|dad|son|daughter|kids?|sister|"
    r"brother)))"
)
# a contract signed, a home bought: a plan, with the day said in its clause or in the next sentence ("Signed
# with Rocket Lab yesterday! First day is 8 February", "We closed on a house in Evanston! Moving day is
# December 19th": graphmem.model.planned.day_said_next); with no day, no fact
_CONTRACT = r"(?:my|the|a|an|their) (?:new )?(?:job )?(?:contract|offer)(?: letter)?"
SIGNED = compile_rule(  # (or "from": "Signed the offer from Stripe today. My start date is February 2nd")
    r"\bI(?:'ve| have)?(?: just| finally)? signed"
    rf"(?:(?: {_CONTRACT})? with| {_CONTRACT} from)\s+{FIRM_NAME}"
    r"(?![^.!?\n]*\b(?:phone|mobile|broadband|sim|tariff|plan|gym|membership|switch|energy|bill|account|"
    r"subscription|deal)\b)"  # a service
)
BOUGHT = compile_rule(
    r"\b(?:I|[Ww]e)(?:'ve| have)?(?: just| finally)? (?:closed on|completed on|exchanged on|bought|"
    r"(?:had|got) an offer accepted on) (?:a|an|the|our|my) (?:[\w-]+ )?(?:house|flat|home|place|apartment|"
    rf"condo|bungalow|cottage) in\s+{NAMED_PLACE}{PLACE_END}"
    r"(?!,? (?:and )?(?:have |'ve )?(?:just |finally )?moved in\b(?! with\b))"  # a home now (state_patterns)
    r"(?!\s+(?:to (?:rent|let)(?: it)? out|as an? (?:investment|holiday|second))\b)"  # not a home
)
_WE_WILL = (
    rf"{HOUSEHOLD}(?:'ll| will|'re going to| are going to|'re gonna|'re planning to| are planning to|"
    r" plan to| intend to)(?: now)?(?: be)?"
)
# a sentence or a clause without its subject: "Moving to Cheltenham on the 26th", "Relocating to Doha on 1
# December", "... but moving to the Gold
# Coast on 1 August" (a plan only with a date: "Moving to Leeds was the best decision" is none); a place only
# (graphmem.model.places): "Moving to Linux on Monday" is no home
MOVING_ALONE = compile_rule(
    rf"(?:^|[.!?]\s+|\b(?:but|and|so) )(?:(?:[Jj]ust|[Ss]oon|[Ff]inally) )?(?i:moving|relocating){MOVE_TO}"
)
# a home got, found or secured, with its move day said in its clause or the next sentence ("Got the flat in
# Glasgow! Moving on 9 January", "We found a house in Dundee, we move in on the 3rd"); a place only, and no
# trip's words in the message ("We found a flat in Porto for the holidays", "Got a flat in Rome for a week")
GOT_HOME = compile_rule(
    r"\b(?:I|[Ww]e)(?:'ve| have)?(?: just| finally)? "
    r"(?:got|found|secured|landed|signed for|signed the lease on) "
    r"(?:a|an|the|our|my) (?:[\w-]+ )?(?:house|flat|home|place|apartment|condo|bungalow|cottage) in\s+"
    rf"{NAMED_PLACE}{PLACE_END}"
)
# a job or a post accepted, its start said in its clause or in the next sentence ("Accepted a position with
# the International School of Kigali! I start January 11"): an employer by its name (not "Accepted a role
# with Sarah's team", "I've taken a job with Dad")
ACCEPTED = compile_rule(
    rf"(?:{SPEAKER} (?:accepted|taken|took|landed|got|signed for)|"
    rf"{SPEAKER} (?:been |was )?offered(?=[^.!?\n]*\b"
    rf"(?:and|so) I (?:said yes|accepted|took it)\b)) (?:a |an |the |their )?(?:new )?"
    rf"(?:job|role|position|post|offer|job offer)(?: offer)? (?:at|with|from)\s+{FIRM_NAME}(?![\w&'-])"
    r"(?!\s+(?:on|for) (?:the|our|my|a) (?:house|flat|home|place|property|apartment|condo)\b)"  # a sale
)
# where one will be from a date, said of a firm in a message about work or leaving one ("Leaving Nokia,
# I'll be at Supercell from the 1st of September"; not "I'll be at my mum's from Friday", "I'll be at
# Heathrow from 6am", "I'll be at Google from Monday for a conference")
BE_AT = compile_rule(
    rf"\bI(?:'ll| will) be at\s+{FIRM_NAME}(?=\s+(?:from|on|starting)\s+(?:the \d|\d|{_MONTH_OR_DAY}))"
    r"(?![^.!?\n]*\b(?:for (?:a|the|an) (?:conference|meeting|workshop|training|course|event|visit|day|"
    r"week|few days)|working from|shopping|interview|appointment)\b)"
)
PLANNED: list[tuple[re.Pattern[str], str]] = [
    (
        compile_rule(
            rf"(?:{WILL} {MOVE_VERB}|{_WE_WILL} (?:moving|move) (?:house|home))"
            rf"{MOVE_TO}"
        ),
        "location",
    ),
    (MOVING_ALONE, "location"),
    (  # "From next month I'll be living in Oslo"
        compile_rule(
            rf"(?:{WILL}|{_WE_WILL}) (?:living|live) in\s+(?=(?:the )?[A-Z])(?>{PLACE}{PLACE_END})"
            rf"(?![^.,;!?\n]*\b(?:for the|for (?:a|\w+) (?:days?|weeks?|months?)|until|till|forever)\b)"
        ),
        "location",
    ),
    (
        compile_rule(
            rf"(?:{WILL}|\bI(?:'m| am)|\bI) start(?:ing)? (?:(?:a |my |the )?(?:new )?job|work(?:ing)?) "
            rf"(?:at|with|for)\s+(?!(?:{STOP})\b){OBJ}{END}"
        ),
        "employer",
    ),
    (  # a job taken that starts later: "I've accepted a job at Google, starting in January", "I got an
        # offer from Monzo and I start on the 4th" (read up to the verb: a date after it is the start's; not
        # "I've been offered a role": not taken)
        compile_rule(
            rf"{SPEAKER} (?:got|accepted|landed|taken|took|signed) (?:(?:a |an |the )?"
            rf"(?:new )?(?:job |work )?offer (?:at|with|from)|{JOB}(?:at|with)|(?:a |the )?(?:new )?"
            rf"(?:[a-z-]+ )?(?:role|position|post) (?:at|with))\s+{NAMED}{OBJ}{END}[^.!?;\n]{{0,30}}?\b"
            rf"(?:I(?:'ll| will)? start|I'm "
            rf"starting|starting|start(?:s|ing)? (?:on|in|from|next)|beginning|first day (?:is|will be))\b"
            r"(?!\s+(?:as|out|off|with)\b)"  # a role, not a date: "starting as a junior engineer"
        ),
        "employer",
    ),
    (JOINING, "employer"),
    (SIGNED, "employer"),
    (BOUGHT, "location"),
    (GOT_HOME, "location"),
    (ACCEPTED, "employer"),
    (BE_AT, "employer"),
]
# "I'm not", "we won't be", "I've decided not to": a plan called off or put off
# (graphmem.model.calloff_patterns)
NOT_WILL = (
    r"\b(?:I(?:'m not| am not|'m no longer| am no longer)|(?:I|[Ww]e)(?: won't| will not)|"
    r"[Ww]e(?:'re not| aren't| are not))(?: be)?(?: going to)?|"
    r"\bI(?:'ve| have)? decided not to"
)
# not a date, after a value's words: "instead of February", "the move to March" (a month)
NOT_A_DATE = (
    rf"(?!(?i:{MONTH_NAME}|next|the (?:end|start|beginning|\d)|\d|early|mid|late|{SEASON}|later|after)\b)"
)
# Where the speaker stays, said as how a plan ended ("I ended up staying in Leeds", "In the end I stayed in
# Bath", "we've decided to stay in Glasgow", "I'm staying in Leeds now"; the sentence says "ended up",
# "decided", "in the end", ...: STAY_CUE): the pending plan that would replace that place is withdrawn, not a
# plan elsewhere ("I stayed in Paris for a week" on a trip, with no cue, is nothing)
STAYED = compile_rule(
    rf"(?:\b(?:I|[Ww]e)(?:'ve| have|'m|'re| am| are)?(?! (?:not|no longer|never)\b)(?: \w+){{0,2}} "
    rf"(?:stay(?:ing|ed)?(?: put)?|remain(?:ing|ed)?) in|(?:{NOT_WILL}) (?:be )?moving away from)\s+"
    rf"{NAMED}{PLACE}{PLACE_END}"
)
STAY_CUE = compile_rule(
    r"\b(?:ended up|decided|chose|in the end|eventually|after all|instead|(?<!for )(?<!right )now|"
    r"for good|changed (?:my|our) minds?)\b",
    re.I,
)
# stated in the present progressive ("I'm moving", "Emma is relocating"; not "I was moving boxes")
PROGRESSIVE = compile_rule(
    r"(?:'m|\b(?:am|is|are)|'re)(?: all| both)?(?: \w+ly| now| just)? (?:moving|relocating|starting)\b"
)
# a new value of a key whose plan it replaces: "instead", or "instead of" what the plan names ("I'm moving to
# Oslo instead of Manchester"; "I work at Acme instead of freelancing" names no plan; "instead of February"
# names a date, not a value; "instead of going to Manchester", "instead of joining Spotify" name the plan's
# value)
_INSTEAD_OF_DOING = (
    r"(?:(?:going|moving|relocating|heading)(?: back)? to\s+|(?:working|starting)(?: work| a new job)? "
    r"(?:at|with|for)\s+|joining\s+)?"
)
INSTEAD = compile_rule(rf"\binstead\b(?: of\s+{_INSTEAD_OF_DOING}{NOT_A_DATE}{OBJ}{END})?", re.I)
PLANNABLE = frozenset({"location", "employer"})  # the keys a plan can be stated for (PLANNED)
AFTER_ALL = compile_rule(r"\s+(?:after all|any ?more|either|now)$", re.I)

# A value said by mistake, corrected: "Sorry, I meant Liverpool, not Manchester", "Turns out it's Leeds, not
# Leicester", "I said Monzo but I meant Revolut". The key whose current value or pending plan the wrong name
# names has the right one in its place (graphmem.model.fact_endings.plan_correction); naming none, nothing.
_NAME = r"(?!(?:I|They|He|She|It|We|You|The|This|That)\b)[A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,3}"
_AT = r"(?:in |at |to |for |with )?"
CORRECTED = [
    compile_rule(
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
    compile_rule(rf"\bI (?:said|wrote|typed|put) (?P<wrong>{_NAME}),? but I meant {_AT}(?P<obj>{_NAME})\b"),
    # the right name first, its own sentence: "Aldi, sorry, not Lidl."
    compile_rule(
        rf"(?:^|[.!?]\s+)(?P<obj>{_NAME}),? (?:sorry|oops|my bad|I mean),? not (?P<wrong>{_NAME})"
        r"(?=\s*(?:[.!?;)\n]|$))"
    ),
]
# A pending plan's value changed, its date kept: "we're going to Brisbane instead of Sydney", "not Graz any
# more, we're going to Salzburg instead", "I'm joining ITV instead of the BBC" (as CORRECTED, of a plan only)
REPLANNED = [
    compile_rule(
        r"\b(?:I(?:'m| am)|[Ww]e(?:'re| are)|I(?:'ve| have)|[Ww]e(?:'ve| have))(?: now)? (?:going|heading|"
        r"joining|going with|decided to go|decided on|chosen|gone for) (?:to |with )?"
        rf"(?:the )?(?P<obj>{_NAME}) (?:instead of|rather than) (?:the )?(?P<wrong>{_NAME})\b"
    ),
    compile_rule(
        rf"\b[Nn]ot (?:the )?(?P<wrong>{_NAME}) any ?more\b[^.!?\n]{{0,60}}?\b(?:going|heading) to "
        rf"(?:the )?(?P<obj>{_NAME}) instead\b"
    ),
    # the old one dropped first, in the message's own words: "scratch Hamburg, the job there fell through.
    # we're going to Cologne instead, same date", "actually turned Barclays down, going to Lloyds instead,
    # start 11 Jan" (the right one "instead", in the same sentence or the next)
    compile_rule(
        r"\b(?i:scratch|forget|turned|dropped|ditched|scrapped|declined|passed on)\s+(?:the )?"
        rf"(?P<wrong>{_NAME})(?: down)?\b[^.!?\n]{{0,80}}?(?:[.!?]\s+[^.!?\n]{{0,40}}?)?"
        r"\b(?:going|heading|moving|relocating|joining|starting at)(?: to| with)? (?:the )?"
        rf"(?P<obj>{_NAME}) instead\b"
    ),
    # "instead of" the old one first: "Change of plans - instead of Calgary, the company is sending me to
    # Edmonton in April", "instead of Leeds, we're moving to York"
    compile_rule(
        rf"\b(?i:instead of) (?:the )?(?P<wrong>{_NAME}),? [^.!?\n]{{0,50}}?\b(?:(?:sending|moving|posting|"
        r"transferring|relocating) me|(?:I|[Ww]e)(?:'re| are|'m| am|'ll| will)(?: be)? (?:going|heading|"
        rf"moving|relocating|joining|starting at)) (?:to |with )?(?:the )?(?P<obj>{_NAME})\b"
    ),
]

# The household's move in any words ("We moved to Harrogate", "Emma and I are moving to Bath in March"): a
# home only where the place is one (graphmem.model.places; "we moved to Slack" is a team's tool)
HOUSEHOLD_MOVED = compile_rule(
    rf"(?:{US}|{HOUSEHOLD}(?P<will>'ll| will|'re planning to| are planning to| plan to)(?: now)?(?: be)?)"
    r"(?: (?:packed up|sold up|sold the house) and)? "
    rf"(?:moved|moving|shifted|shifting|made the move|"
    rf"relocated|relocating|upped sticks|emigrated|(?P<now>move|relocate)){MOVE_TO}(?!{FOR_A_WHILE})"
)
