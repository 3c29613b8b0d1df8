"""Where one works, said in the words people use beside "I work at" (pure): "I'm a UX designer at Figma",
"I'm contracting for Network Rail", "I'm at Miro now", "I made the jump to Monash Health", "first week at
Salesforce done", "I started at Ericsson last week", "I've been at Shopify for three years". Each pattern's
value must pass its check, mostly that it names an organisation
(:func:`graphmem.model.people.is_organisation`), since the same words carry a shop ("I'm at Tesco now, want
anything?") or a friend ("I'm at Sarah's now").
:mod:`graphmem.model.state_patterns` holds them with the patterns of where one lives."""

from __future__ import annotations

import re

from graphmem.model.pattern_pieces import (
    A_TRIP,
    AN_ERRAND,
    END,
    FIRM_NAME,
    I_AND,
    LEFT_AFTER,
    MONTH,
    NAMED,
    NOT_A_DEPARTMENT,
    OBJ,
    SEASON,
    SHIFT,
    compile_rule,
)
from graphmem.model.people import (
    AFTER_FIRM,
    firm_and_place,
    is_employer,
    is_organisation,
    is_role,
    names_a_kind,
)
from graphmem.model.places import is_place
from graphmem.model.role_patterns import I_AM, Check, a_job_at

__all__ = ["I_AM", "WORK_PATTERNS", "Check", "an_organisation"]

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
    r"natural|disaster|nightmare|beginner|novice|genius|wizard|contributor|addict|late|early|godmother|"
    r"godfather|godparent|bridesmaid|groomsman|striker|goalkeeper|keeper|defender|midfielder|winger|player|"
    r"supporter|ambassador|trustee|governor|marshal|mascot)s? "
    r"(?:at|for|with)\b)"
)
# a word of work in the sentence: "I'm at Miro now, made the switch in October" (not "I'm at Tesco now, want
# anything?", "I'm at Pret now, on my lunch break from work", "... the office wifi is down")
_WORK_WORDS = compile_rule(  # anywhere in the message
    r"\b(?:job|(?<!from )(?<!for )work|working|role|team|switch|switched|joined|started|hired|hours|"
    r"colleagues|boss|manager|position|contract|salary|(?<!to )pay|shifts?|private|moved on|used to be at|"
    r"used to work|leaving to join|"
    # "left Deloitte in May", "went private" (not "left my list at home", "went for the cheap petrol")
    r"(?i:left) (?=[A-Z]|my (?:old |last )?job)|"
    r"went (?:private|freelance|contract|in-house|part-time|full-time))\b"
)
# a contract for a service, not for work: "I'm on a phone contract with EE", "a monthly contract with BT"
_NOT_A_SERVICE = (
    r"(?!(?:phone|mobile|broadband|internet|fibre|sim|energy|gas|electricity|tv|data|airtime|gym|monthly|"
    r"annual|yearly|rolling|tariff)\b)"
)
# a firm's name ends where the clause does, or before the place it is in ("KPMG in Toronto": see
# :func:`graphmem.model.people.firm_and_place`)
_FIRM_END = rf"(?:{END}|(?=\s+in\s+[A-Z])|(?=\s+(?:office|offices|branch|site|campus|plant|store|HQ)\b))"


_I_AM_WORKING = (  # ("I live in Valencia and work in Mercadona offices")
    r"(?:\bI (?:now |currently |still )?work|\bI(?:'m| am) (?:now |currently |still )?working|"
    r"\bI\b[^.!?\n]{0,80}? and (?:now )?work)"
)
# a trade or a sector worked in, not an organisation: "I work in Retail", "working in Tech"
_NOT_A_TRADE = (
    r"(?!(?:Tech|Technology|Retail|Education|Healthcare|Health|Hospitality|Insurance|Banking|Finance|"
    r"Consulting|Construction|Media|Publishing|Pharma|Government|Sales|Property|Real Estate|Recruitment|"
    r"Logistics|Manufacturing|Energy|Telecoms?|Fintech|Advertising|Academia|Tourism|Law|Accounting|IT)\b)"
)


def _at_work(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation, in a message about work (:data:`_WORK_WORDS`): "Left Deloitte in October, I'm with
    Bendigo Bank now", not "I'm at Tesco now, want anything?"."""
    return is_organisation(value) and _WORK_WORDS.search(text) is not None


def an_organisation(value: str, text: str, match: re.Match[str]) -> bool:
    """The value names an organisation (:func:`graphmem.model.people.is_organisation`)."""
    return is_organisation(value)


def _started_at(value: str, text: str, match: re.Match[str]) -> bool:
    """An employer (:func:`graphmem.model.people.is_employer`) still worked at: not "I started at Ericsson
    in 2019 and left in 2022"."""
    return (
        is_employer(value)
        and _LEFT_AFTER.match(text, match.end()) is None
        # "started at the Ministry of Sound last night, what a club" (in its own sentence)
        and _A_NIGHT_OUT.match(text, match.end()) is None
    )


_A_NIGHT_OUT = compile_rule(r"[^.!?\n]*\b(?:last night|tonight|club|gig|party|rave|pub crawl)\b", re.I)


def _been_at(value: str, text: str, match: re.Match[str]) -> bool:
    """An employer still worked at: not "I've been at Oxford for two years", "... at church since 2010", "...
    at Gran's since March", "... but I left last month"."""
    return is_employer(value) and _LEFT_AFTER.match(text, match.end()) is None


def _said_of_work(value: str, text: str, match: re.Match[str]) -> bool:
    """An employer, in a message that speaks of work beside the match, or whose name says its kind: "I made
    the jump to Monash Health", "... and my new team is great" (not "I made the jump to Notion from
    Evernote", "now that I'm with Sky, I get all the sports", "Two days in at Center Parcs")."""
    if not is_employer(value) or A_TRIP.search(text) is not None or AN_ERRAND.search(text) is not None:
        return False
    rest = text[: match.start()] + text[match.end() :]
    said = match.group().lower()
    kind = names_a_kind(value) and not said.startswith(_SWITCH) and " with " not in said  # a supplier's
    return kind or _WORK_WORDS.search(rest) is not None


# "made the switch to Octopus Energy", "now I'm with Octopus Energy" are as often a customer's: the kind of
# its name says nothing
_SWITCH = ("i made the switch", "made the switch")


def _joined(value: str, text: str, match: re.Match[str]) -> bool:
    """An employer joined, in a message that speaks of work beside the joining, or names where it is:
    "Joined TCS in Pune last month" (not "I joined Strava last week")."""
    if not is_employer(value):
        return False
    rest = text[: match.start()] + text[match.end() :]
    return _WORK_WORDS.search(rest) is not None or firm_and_place(value, text, match.end())[1] is not None


def _an_employer_named(value: str, text: str, match: re.Match[str]) -> bool:
    """An employer (not a gym: "I'm still with PureGym"), said before no "for"/"on" of an errand ("I'm still
    at Tesco for milk"), in a message about work (:func:`_said_of_work`)."""
    return _ERRAND.match(text, match.end()) is None and _said_of_work(value, text, match)


def _a_day_at_work(value: str, text: str, match: re.Match[str]) -> bool:
    """An employer, a first day there no trip's ("first day at Legoland was amazing")."""
    return is_employer(value) and A_TRIP.search(text) is None


def _a_role_at(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation after a job's title that opens its sentence or list item ("Senior analyst at KPMG")."""
    role = match["role"].lower().split()
    return (
        is_organisation(value)
        and is_role(match["role"])
        and _NOT_IN_A_ROLE.isdisjoint(role)
        and _SOMEONE_DID.match(text, match.end()) is None  # "Driver at Uber was rude today": someone's
    )


# a verb after the firm: the title is of someone the speaker met ("Manager at Tesco told me off", "Product
# manager @ Atlassian is hiring")
_SOMEONE_DID = compile_rule(
    r"\s+(?:was|is|were|are|has|had|told|said|says|came|comes|coming|called|rang|sent|gave|did|does|will|won't|"
    r"can|can't|could|should|would|helped|fixed|asked)\b"
)


# words no job's title holds: "Meeting with the manager at Tesco", "Lunch with the head chef at Dishoom"
_NOT_IN_A_ROLE = frozenset(
    {"the", "a", "an", "my", "his", "her", "their", "our", "with", "to", "for", "of", "at", "in", "on", "and",
     "or", "meeting", "met", "saw", "call", "called", "talked", "spoke", "lunch", "dinner", "drinks"}
)  # fmt: skip


def _at_work_in_town(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation in a town, in a message about work ("My sister got a job at Amgen. I'm at Genentech in
    South San Francisco"), where no errand or trip is said ("I'm at Tesco in Leeds, want anything?")."""
    after = AFTER_FIRM.match(text, match.end())
    return (
        is_employer(value)
        and after is not None
        and is_place(after["obj"])
        and _WORK_WORDS.search(text) is not None  # in a message about work: not a shop's visit
        and AN_ERRAND.search(text) is None
        and A_TRIP.search(text) is None  # "I'm at the Marriott in Lisbon till Sunday"
    )


_ERRAND = compile_rule(r"\s+(?:for|getting|buying|picking|to (?:get|buy|pick|grab))\b")
_LEFT_AFTER = compile_rule(LEFT_AFTER)


# each pattern, its key, its check and the words it needs (lower case) before it is searched
WORK_PATTERNS: list[tuple[re.Pattern[str], str, Check, str]] = [
    # "I'm a UX designer at Figma", "I'm an engineer at Arm", "I'm a solicitor at Slaughter and May"
    (
        compile_rule(
            rf"{I_AM} an? {_NOT_A_JOB}(?P<role>(?:[\w-]+ ){{0,3}}?{_NOT_A_ROLE}[\w-]+) (?:at|for|with)"
            rf"\s+{FIRM_NAME}{_FIRM_END}"
        ),
        "employer",
        a_job_at,
        "(?:'m|am) (?:now |currently |still |actually )?an? ",
    ),
    # "I'm on a contract at Pfizer", "I'm contracting for Network Rail now", "freelancing for the BBC"
    (
        compile_rule(
            rf"{I_AM} (?:on an? (?:{_NOT_A_SERVICE}\w+ )?contract (?:at|with|for)|"
            rf"(?:contracting|freelancing|consulting) (?:at|for|with))\s+{FIRM_NAME}{_FIRM_END}"
        ),
        "employer",
        an_organisation,
        "contract|freelanc|consult",
    ),
    # "I'm at Miro now, made the switch in October", "I'm with Bendigo Bank now doing internal audit"
    (
        compile_rule(rf"{I_AM} (?:at|with)\s+{FIRM_NAME}(?= now\b)"),
        "employer",
        _at_work,
        "(?:'m|am) (?:now |currently |still |actually )?(?:at|with) ",
    ),
    # "I made the jump to Monash Health", "I made the switch over to Atlassian" (a home: "made the move to
    # Halifax", graphmem.model.fact_patterns)
    (
        compile_rule(
            rf"{I_AND} made the (?:jump|switch|leap|move) (?:over |across )?to\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _said_of_work,
        "made the",
    ),
    # "I got hired by Sonae", "I've been taken on at Arup", "I was headhunted by Monzo"
    (
        compile_rule(
            rf"{I_AND} (?:got|was|been) (?:hired|taken on|recruited|headhunted|poached) (?:by|at)\s+"
            rf"{FIRM_NAME}(?![\w&'-])(?![^.!?\n]*\b(?:start|starting|begin|beginning|from)\b)"  # (a plan)
            r"(?!\s+for (?:a|the) (?:ride|trip|lift|day|weekend)\b)"  # "hired by Uber for a ride"
        ),
        "employer",
        an_organisation,
        "hired|taken on|recruited|headhunted|poached",
    ),
    # "first week at Salesforce done", "My first month at Canva is over" (a day ahead is a plan: "My first
    # day at Canva is Monday", graphmem.model.planned)
    (
        compile_rule(
            rf"\b(?:[Mm]y )?(?:[Ff]irst|[Ss]econd) (?:day|week|month|shift) at\s+{FIRM_NAME}"
            r"(?=,? (?:is |was )?(?:done|over|complete|finished|went|in the bag|survived)\b|,? (?:was|went) )"
        ),
        "employer",
        _a_day_at_work,
        "first|second",
    ),
    # "I work in Nubank", "I am working in Infosys, Bangalore office": an organisation's name (not a place,
    # a team or a trade: "I work in London", "I work in HR", "I work in Retail")
    (
        compile_rule(
            rf"{_I_AM_WORKING} in\s+{NOT_A_DEPARTMENT}{_NOT_A_TRADE}{FIRM_NAME}{_FIRM_END}"
            rf"(?!\s+(?:{SHIFT})\b)"  # not "I'm working in Starbucks today"
        ),
        "employer",
        an_organisation,
        "work(?:ing)? in",
    ),
    # "I started at Ericsson last week", "Just started at Ocado!": an employer by its name alone (not "I
    # started at Oxford in October", "I started at Level 3"; a subject dropped is restored:
    # graphmem.model.elided)
    (
        compile_rule(
            rf"{I_AND} started at\s+{FIRM_NAME}"
            rf"(?!\s+(?:as|when I was)\b)"  # not "... when I was 16": a past job
            # "... in their IT department", "... in Wellington"
            rf"(?:{END}|(?=\s+(?:in|on|at) (?:the|their|its|a|an|our|my)\s)|(?=\s+in\s+[A-Z]))"
        ),
        "employer",
        _started_at,
        "start",
    ),
    # "I've been at Shopify for three years", "I've been working for Stripe for about a month now", "I've been
    # at Houston Methodist since April" (not
    # "I've been with my partner / with Vodafone for five years", "at Uni", "at Oxford")
    (
        compile_rule(
            rf"\bI(?:'ve| have) been (?:working (?:at|for)|at)\s+{NAMED}"
            rf"(?!(?:the )?(?:Uni|University|College|School|Sixth Form)\b){OBJ} (?:(?:for )?(?:about |"
            r"almost |nearly |over |just over |just under )?(?:a|an|one|two|three|four|five|six|seven|eight|"
            r"nine|ten|a few|several|\d+) (?:years?|yrs?|months?|mos?)|since (?i:(?:early |mid-?|late )?"
            rf"{MONTH}|(?:the )?{SEASON}|\d{{4}}|last (?:year|month)))\b"
        ),
        "employer",
        _been_at,
        "been",
    ),
    # "now that I'm with Shelter Cymru", "now that I work for the NHS", "as someone who just started at the
    # Canada Mortgage and Housing Corporation", "I'm still at Dell" (with an organisation's name)
    (
        compile_rule(
            r"(?:\b[Nn]ow (?:that )?I(?:'m| am) (?:with|at|working (?:at|for))|"
            r"\b[Nn]ow that I work (?:at|for)|"
            r"\b[Aa]s (?:someone|somebody|a person|an? [\w-]+) who(?:'s| has)? (?:just |recently )?"
            r"(?:started at|joined)|(?:\bI(?:'m| am)|^|[.!?]\s+|\?\s*)(?:[Ss]till|[Nn]ow) (?:at|with))"
            rf"\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _an_employer_named,
        "now that i|now i(?:'m| am) |who(?:'s| has)? (?:just |recently )?(?:started|joined)|"
        "(?:still|now) (?:at|with)",
    ),
    # a role, then where, as a profile says it: "Product manager @ Atlassian, based in Sydney", "Senior
    # analyst at KPMG, Toronto." (a job's title: not "Lunch at Nando's", "Meeting with the manager at Tesco")
    (
        compile_rule(
            r"(?:^|[.!?:;\n][^\S\n]*|,\s*)(?P<role>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,3}) (?:@|at|with)\s+"
            rf"{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _a_role_at,
        "@| at | with ",
    ),
    # "I teach at Omaha Central High School now", "I teach maths at Hillside Academy"
    (
        compile_rule(
            rf"\bI (?:now |currently |still )?teach (?:[a-z]+ )?(?:at|for)\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        an_organisation,
        "teach",
    ),
    # "Three weeks in at the British Library", "two months in at Canva and loving it"
    (
        compile_rule(
            r"(?:^|[.!?]\s+|\b(?:and|but|so) )(?i:\d+|a few|a couple of|two|three|four|five|six|several) "
            rf"(?:days|weeks|months) in at\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _said_of_work,
        "in at",
    ),
    # "I'm at Genentech in South San Francisco", "I'm at Nokia in Espoo": a firm with its town (see
    # firm_and_place; not "I'm at Tesco in Leeds, want anything?")
    (
        compile_rule(rf"{I_AM} (?:at|with)\s+{FIRM_NAME}(?=\s+in\s+[A-Z])"),
        "employer",
        _at_work_in_town,
        "(?:'m|am) (?:now |currently |still |actually )?(?:at|with) ",
    ),
    # "I'm doing supply work for Highland Council", "..., doing remote work for Naver now", "I've been doing
    # contract work for the BBC" (an organisation's name: not "doing work for my mum")
    (
        compile_rule(
            r"(?:\bI(?:'m| am|'ve been| have been)(?: now| currently| still)? |,\s+(?:and |now |currently )?)"
            rf"doing (?:[\w-]+ ){{0,2}}work for\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        an_organisation,
        "work for",
    ),
    # "I now head credit risk at Fidelity Bank", "I lead the data team at Monzo" (not "I lead worship at St
    # Mary's", "... the book club at ...")
    (
        compile_rule(
            r"\bI (?:now |currently |still )?(?:head|lead|manage|oversee|coordinate) (?:the |a |our )?"
            r"(?![^.,;!?\n]*\b(?:club|choir|worship|class|scouts|brownies|bible|book|reading|prayer|youth)\b)"
            rf"[a-z][\w -]{{1,40}}? (?:at|for|with)\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        an_organisation,
        "head|lead|manage|oversee|coordinate",
    ),
    # "I'm at Barclays, compliance team", "I'm with Deloitte in the audit team"
    (
        compile_rule(
            rf"{I_AM} (?:at|with)\s+{FIRM_NAME}(?=,? (?:in |on )?(?:the |our |my )?[a-z][\w-]*"
            r"(?: [a-z][\w-]*)? (?:team|department|dept|ward|desk|division|unit|office)\b)"
        ),
        "employer",
        an_organisation,
        "(?:'m|am) (?:now |currently |still |actually )?(?:at|with) ",
    ),
    # "Joined TCS in Pune last month", "I joined Arup in March, loving the team" (with a role: "I joined
    # Acme as a designer", graphmem.model.fact_patterns)
    (
        compile_rule(rf"{I_AND} joined\s+{FIRM_NAME}(?!\s+as\b)(?![\w&'-])"),
        "employer",
        _joined,
        "joined",
    ),
]
