"""The pieces the fact patterns are built from (:mod:`graphmem.model.fact_patterns`,
:mod:`graphmem.model.plan_patterns`): what a value, a place and a person look like, and where a value ends."""

from __future__ import annotations

import re

__all__ = [
    "AND",
    "AND_NAME",
    "AN_ERRAND",
    "AS_A_ROLE",
    "A_TIME",
    "A_TRIP",
    "CAPITALS_BEYOND_ASCII",
    "END",
    "FIRM",
    "FIRM_NAME",
    "FOR_AN_EVENT",
    "FOR_A_WHILE",
    "HOUSEHOLD",
    "INNER_STOP",
    "I_AND",
    "JOB",
    "KIN",
    "LEFT_AFTER",
    "MONTH",
    "MOVED_HOME",
    "MOVE_TO",
    "NAME",
    "NAMED",
    "NAMED_PLACE",
    "NOT_A_DEPARTMENT",
    "NOT_A_JOB_NOW",
    "NOT_SOMEONE",
    "NO_EMPLOYER",
    "OBJ",
    "PLACE",
    "PLACE_END",
    "SEASON",
    "SHIFT",
    "SPEAKER",
    "STOP",
    "THEN_TO",
    "TO_CONJUNCTION",
    "TRIP",
    "US",
    "WHEN",
    "WHO",
    "capitals",
    "compile_rule",
    "sentence_end",
    "sentence_start",
    "shield",
]

CAPITALS_BEYOND_ASCII = "".join(c for c in map(chr, range(0xC0, 0x10000)) if c.isupper() and c.isalpha())
"""The basic multilingual plane's capital letters beyond ASCII (Python's re has no \\p{Lu})."""
_OPENS_WITH_A_TO_Z = re.compile(r"\[A-Z(?!" + CAPITALS_BEYOND_ASCII[0] + ")")


def capitals(pattern: str) -> str:
    """``pattern`` with every character class that opens with ``A-Z`` taking the capitals of other scripts
    too: a name or a place the rules read starts with a capital of any script ("I live in Örebro", "My name
    is Élodie", "I moved to Łódź"; with ``A-Z`` alone they stated nothing). Idempotent."""
    return _OPENS_WITH_A_TO_Z.sub(lambda _: "[A-Z" + CAPITALS_BEYOND_ASCII, pattern)


def compile_rule(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A rule's regex, its capitals of any script (:func:`capitals`)."""
    return re.compile(capitals(pattern), flags)


OBJ = r"(?P<obj>[^.,;!?\n]{2,60}?)"
# the words of the calendar, lower case (read inside "(?i:...)"): a month's name whole ("March"), whole or
# short ("sept", "dec"), a season, a day of the week ("Monday")
MONTH_NAME = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
MONTH = rf"(?:{MONTH_NAME}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)"
SEASON = r"(?:spring|summer|autumn|fall|winter)"
WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# a value ends before a conjunction or a time ("I moved to Berlin in March", "two years ago", "on Mondays")
WHEN = (
    rf"in \d+|(?i:in {MONTH}|in (?:the )?(?:{SEASON}|new year)|"
    rf"on {WEEKDAY}s?|on (?:weekdays|weekends|the weekend)|"
    rf"on (?:the )?\d+(?:st|nd|rd|th)?|(?i:on {MONTH}\b|"
    rf"in (?:early|mid|late)\b|in mid-|from (?:the |next |{MONTH_NAME}|\d+|{WEEKDAY}))|"
    r"(?:at|by|before|towards?|around) the (?:end|start|beginning|middle) of|after|before|"
    r"soon|later|eventually|one day|some ?day|at some point|forever|at the moment|these days|right now|"
    r"for now|currently|"
    r"(?:at|on|over|by|around) (?:the )?(?i:christmas|new year|boxing day|halloween|valentine's day)|"
    r"over the (?:summer|winter|spring|autumn|weekend|holidays|break)|"
    r"yesterday|today|tonight|tomorrow|recently|lately|until|till|during|ago|"
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+) "
    r"(?:days?|weeks?|months?|years?) ago|in (?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|"
    r"a couple of|several) (?:days?|weeks?|months?|years?))"
)
STOP = (
    rf"and|but|because|since|so|when|if|though|although|as|now|too|next|this|last|instead|starting|any ?more|"
    # "I left Lego back in February", "Facebook years ago", "I'm in Lyon atm", "Allianz here in Munich"
    r"atm|rn|at the moment|right now|(?:out |over |up |down )?here|finally|at last|lol|haha|tbh|btw|"
    r"back (?=in|on|at|when|then)|"
    r"(?:\w+ )?(?:years?|months?|weeks?) ago|"
    rf"{WHEN}"
)
# (spaces before: an emoji read as one; a bracket after: "Shopify (fully remote)")
END = rf"(?=\s+(?:{STOP})\b|\s*[.,;!?\n]|(?<!\s)\s+\(|\s*$)"
# a place: words, optionally ", Town" ("Ancoats, Manchester")
PLACE = r"(?P<obj>[^.,;!?\n]{2,40}?(?:,\s*[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)?)"
# (or a purpose after it: "Leeds to be closer to family", "Leeds to study")
# (or where in it: "Leeds near the uni", "Bath, just outside the centre"; or when: "Cork by then", "Inverness
# over the summer")
PLACE_END = (
    rf"(?=\s+(?:{STOP}|for|with|near|outside|close to|next to|not far from|by (?:the time|then|now)|"
    r"over (?:the|this|last)|"
    r"to (?!(?:the|a|an|my|our|his|her|their)\b)[a-z]+)\b|\s*[.,;!?\n]|\s*$)"
)
# a place the speaker moves to or lives in is named: "London", "the UK" (not "the couch", "a shared house")
NAMED = (
    r"(?=(?:the |a |an )?[A-Z0-9]|(?!(?:the|a|an|my|our|his|her|their|this|that|some|part|there|nicely|well|"
    rf"fine|ok|okay|hope|fear|denial|luxury|peace|sin|{STOP})\b)[a-z]+(?:[.,;!?\n]|$|\s+(?:{STOP})\b))"
)  # or one word typed in lower case: "I live in london" (not "Settled in now,")
# where a move goes, after its verb: "(house|back|away) (from Leeds|out of London) to Manchester" (not "to be
# closer to family")
_FROM = r"(?: (?:from|out of) (?:(?!\bto\b)[^.,;!?\n]){2,40}?)?"
MOVE_TO = (  # ("moved up to Newcastle", "relocated down to London")
    rf"(?: house| back(?: home)?| home| away| over| up| down| out)?{_FROM} to\s+{NAMED}{PLACE}{PLACE_END}"
)
# a further move in the same sentence: "(I moved to Paris in 2015) and then to Berlin in 2019"
THEN_TO = (
    r"(?:[^.!?;\n]{0,40}? and(?: then| later| eventually)?(?: moved)? to\s+"
    rf"{NAMED}(?P<then>[^.,;!?\n]{{2,40}}?(?:,\s*[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)?){PLACE_END})"
)
# a firm named by two names ("Marks and Spencer", "Procter & Gamble now"): a capitalised word after "and" that
# ends the clause or is followed by where or as what (not "Google and Sarah works at Meta")
AND_NAME = compile_rule(
    r"\s+(?:and|&)\s+(?P<name>[A-Z][\w'-]+)(?=\s*[.,;!?\n]|\s*$|\s+(?:in|as|since|now|on)\b)"
)
# an event one goes somewhere for, after the place and ending its phrase ("I moved to Mumbai for the
# conference", "... for the summit next week"; not "for a gig at Caesars", "for the trip of a lifetime")
# a role after a name moved to ("moving to Initech next month as a staff engineer", "moved over to Stripe last
# year as a designer"): a job, no home, unless the name is a place ("moved to Leeds as a student")
AS_A_ROLE = compile_rule(r"(?:\s+(?:next|this|last|in|from) \w+)?,?\s+as (?:a|an|the|their|our|its) \w")
FOR_AN_EVENT = compile_rule(
    r"\s+for (?:the|a|an|this|that) (?:\w+ )?(?:conference|trip|festival|wedding|funeral|workshop|retreat|"
    r"tournament|summit|expo|gig|concert)s?(?=\s*[.,;:!?\n]|\s*$|\s+(?:in|on|this|next|last|and|but|so|then)\b)"
)
# a while away, after a place: "(I moved out of London) for a week", "(we moved to Harrogate) for the weekend"
FOR_A_WHILE = (
    r"\s+for\s+(?:a|an|the|one|two|three|four|a few|a couple of|several|some|\d+)\s+(?:\w+\s+)?"
    r"(?:days?|nights?|weeks?|weekends?|months?|summer|winter|spring|autumn|holidays?|while|bit|term)\b"
)
_ADVERB = r"(?: just| finally| recently| now| already| actually| officially| eventually| ended up)?"
# "I'd" as "I had", before a past form ("I'd moved to Cork by then"; not "I'd move to Accra in a heartbeat")
_HAD = (
    r"(?:'d| had)(?=(?: just| already| finally| recently)? (?:moved|left|relocated|settled|lived|been|"
    r"emigrated))"
)
SPEAKER = rf"\bI(?:'ve|'m| have| am|{_HAD})?{_ADVERB}"
# the speaker's household, for where they live: "we moved to Leeds", "Emma and I are moving to Bath"
HOUSEHOLD = (
    r"(?:\b[Ww]e|\b(?:[Mm]y (?:wife|husband|partner|family|fianc[ée]e?|girlfriend|boyfriend|kids|children)|"
    r"[Tt]he (?:kids|children|family|boys|girls)|[A-Z][a-z]+) and I)"
)
US = rf"{HOUSEHOLD}(?:'ve|'re| have| are|{_HAD})?(?: all| both)?{_ADVERB}"  # ("we're all moving to Bend")
JOB = r"(?:a |my |the )?(?:new |first |part-time |full-time )?(?:job|post) "
# the speaker as the subject of a job taken, also after "and" in a sentence of theirs: "I moved to Berlin in
# March and started at Zalando as a data engineer"
AND = r"\bI\b[^.!?\n]{0,80}? and(?: then)?"
I_AND = rf"(?:{SPEAKER}|{AND})"
KIN = (
    r"sister|brother|mom|mum|mother|dad|father|parents|son|daughter|kids|wife|husband|partner|boyfriend|"
    r"girlfriend|friend|best friend|boss|manager|colleague|cousin|aunt|uncle|grandma|grandmother|grandpa|"
    r"grandfather|roommate|flatmate|neighbou?r"
)
# a first name: "Emma", "Jean-Luc", "O'Neil", "McKenzie" (not "I'm", not the tail of a word)
NAME = r"(?![IA]\b|I')[A-Z][a-z]*(?:[A-Z][a-z]+)*(?:['-][A-Z]?[a-z]+)*"
WHO = rf"(?:\b[Mm]y (?P<kin>{KIN})(?: (?P<kin_name>{NAME}))?|(?<![\w'-])(?P<name>{NAME}))"
NOT_SOMEONE = frozenset(  # (nor a sentence's first adverb: "Just moved to a new desk at work")
    {"She", "He", "They", "We", "It", "This", "That", "There", "Who", "Everyone", "Someone", "Nobody", "One",
     "Just", "Finally", "Recently", "Officially", "Also", "Then", "Eventually", "Actually", "Apparently",
     "Honestly", "Anyway", "Sadly", "Luckily", "Hopefully", "Basically", "Today", "Yesterday", "Soon", "Now",
     "Already", "Still", "Never", "Once"}
)  # fmt: skip
# the household ("we") moves only in a home's words: "we moved house to Harrogate", "we're moving home"; "we
# moved to Slack", "we're moving to Python 3.12" are a team's
MOVED_HOME = r"(?:moved|moving|move) (?:house|home)"
SHIFT = (  # when work is a shift, not a job
    r"today|tonight|tomorrow|this (?:morning|afternoon|evening|week|weekend|month|summer|winter|year)|"
    r"next (?:week|weekend)|for the (?:day|week|weekend|summer|season)|over the|on \w+days?"
)
# where one works that is no employer: "I work at home on Fridays", "I work at weekends"
NO_EMPLOYER = frozenset(
    {"home", "weekends", "the weekend", "weekend", "night", "nights", "the moment", "my desk", "a desk", "it"}
    | {"christmas", "easter", "new year", "new year's eve", "halloween", "thanksgiving", "the holidays"}
    | {"last", "long last", "short notice", "all", "first", "the same time"}  # "Got a new job at last!"
)
A_TIME = compile_rule(  # "9 tomorrow", "8 on Monday"; not "3M", "24 Hour Fitness"
    r"\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm|o'clock)?(?:\s+(?:tomorrow|today|tonight|on|every|sharp|in|this|next)\b.*)?",
    re.I,
)
# the rest of a phrase up to a conjunction: "I'm working at Google and I have a meeting tomorrow" is a job
TO_CONJUNCTION = r"(?:(?!\b(?:and|but|so|because)\b)[^.,;!?\n]){0,150}"  # (bounded: linear on a long clause)
# A full stop inside a name ("St. Mary's", "Washington D.C.", "Dr. Smith") is not the end of a value: such
# stops are swapped for a character no value pattern stops at while matching, and swapped back in the values.
ABBREVIATION = compile_rule(
    r"\b(?:[A-Z]\.){2,}|\b(?:St|Dr|Mr|Mrs|Ms|Mt|Ft|Jr|Sr|Prof|Inc|Ltd|Co|Corp|Ave|Rd)\.(?= [A-Z0-9])"
)
INNER_STOP = "\u2024"  # ONE DOT LEADER


def shield(text: str) -> str:
    """``text`` with the full stops inside names swapped for :data:`INNER_STOP`."""
    return ABBREVIATION.sub(lambda m: m.group().replace(".", INNER_STOP), text) if "." in text else text


# a job left later in the sentence ("I started at Ericsson in 2019 and left in 2022"): without its "I", only
# with a time or nothing after it (not "... but left my badge at home", "... and left early today")
LEFT_AFTER = (
    r"[^.!?\n]*\b(?:but|and|though)(?: then)?(?: I(?:'ve| have)? (?:left|quit)\b| (?:left|quit)"
    r"(?=\s*(?:[.,;!?\n]|$)|\s+(?:in|last|after|there|them|(?:a|an|one|two|three|a few|\d+) \w+ later)\b))"
)
FIRM = r"(?P<obj>[A-Z][\w&'-]*(?:\s+(?:[A-Z][\w&'-]*|of\b|&))*)\b"  # a name as written: "Bank of America"
# a firm named alone ("Dyson", "the BBC", "Slaughter and May"); an employer only where it is an
# organisation's name (graphmem.model.people), not "Sarah", "Oxford"
FIRM_NAME = (  # ("Ateneo de Manila University", "Harris County Attorney's Office" of "... and I start")
    r"(?P<obj>(?:the )?[A-Z][\w&'-]*(?:\s+(?:(?!I\b|I')[A-Z][\w&'-]*|of\b|&|and(?= [A-Z])(?! I\b)|"
    r"(?:de|da|do|di|del|della|des|du|la|le|van|von|der|den|y)(?= [A-Z])))*)"
)
# a place as a name is written ("Denver", "the UK", "Ancoats, Manchester"), not "marketing", "denial", "London
# has changed me"
NAMED_PLACE = r"(?P<obj>(?:the )?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*(?:,\s*[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)?)"
# a team or a department, not a place: "I'm based in HR", "based in Finance"
NOT_A_DEPARTMENT = (
    r"(?!(?:the )?(?:HR|IT|Finance|Marketing|Sales|Legal|Engineering|Operations|Accounts|Support|Product|"
    r"Design|Research|Admin|Customer Service|Procurement|Compliance|Ops)\b)"
)
# not a job held now: "I lost / I'm quitting / I miss / Hated my job at Tesco", "... from my job at ..."
NOT_A_JOB_NOW = "".join(
    rf"(?<!\b{w} )(?<!\b{w.capitalize()} )"
    for w in ("lost", "losing", "quit", "quitting", "left", "leaving", "from", "miss", "missed", "missing",
              "hated", "hate", "after", "before", "than", "about", "old")
)  # fmt: skip
# the words of a trip, a visit or a sight seen (where one is for now, not where one lives or works): read
# case-blind in the sentence of a value and the next
TRIP = (
    r"\b(?:landed|flight|flew|fly(?:ing)? (?:home|back|out)|hotel|hostel|airbnb|holidays?|vacation|trip|"
    r"visit|visiting|sightseeing|recommend\w*|tourists?|touristy|conference|layover|stopover|honeymoon|"
    r"backpacking|travell?ing|(?:heading|going|back) (?:home|back)|festival|wedding|jet ?lag\w*|"
    r"gorgeous|stunning|beautiful|amazing|incredible|loving it|where are you|at (?:my|our) \w+'s|"
    r"(?:mum|mom|parents|in-laws|grandma|gran|nan)'s?|weekend|this week|nomad)\b"
)
# the words of an errand at a shop or a firm's counter, not of a job there: "I'm at Tesco in Leeds, want
# anything?", "still at Sainsbury's, queue is mad"
ERRAND = (
    r"\b(?:want anything|need anything|getting|buying|picking up|shopping|queue|grabbing|for (?:a|the) "
    r"(?:coffee|meeting|conference|workshop|visit|day|weekend|week))\b"
)
# the trip's and the errand's words above, compiled once (case-blind)
A_TRIP = compile_rule(TRIP, re.IGNORECASE)
AN_ERRAND = compile_rule(ERRAND, re.IGNORECASE)
_SENTENCE_STOP = compile_rule(r"[.!?\n]")


def sentence_start(text: str, at: int) -> int:
    """Where the sentence holding ``at`` starts: after the last stop before it, or at 0."""
    return max(text.rfind(stop, 0, at) for stop in ".!?\n") + 1


def sentence_end(text: str, at: int) -> int:
    """Where the sentence holding ``at`` ends: its next stop, or the end of ``text``."""
    stop = _SENTENCE_STOP.search(text, at)
    return stop.start() if stop else len(text)


# every piece above, its capitals of any script (the rule modules compose them into their patterns)
globals().update({k: capitals(v) for k, v in list(globals().items()) if k.isupper() and isinstance(v, str)})
