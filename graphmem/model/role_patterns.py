"""Where one works, said by a job's title or by the people one works with (pure): "I'm a lawyer at Clifford
Chance", "a vet tech at Banfield", "my boss at Canva", "I run a bakery called Crumb & Co", "I work at a ramen
spot called Ippudo"; and the town of a job's title, "I'm a Toronto-based designer".
:mod:`graphmem.model.work_patterns` holds the other wordings of work and uses
:func:`a_job_at`; :mod:`graphmem.model.state_patterns` holds both with the patterns of where one lives."""

from __future__ import annotations

import re
from collections.abc import Callable

from graphmem.model.pattern_pieces import END, FIRM_NAME, JOB, KIN, OBJ, SPEAKER, compile_rule, sentence_start
from graphmem.model.people import RELATIVES, is_first_name, is_organisation, is_role
from graphmem.model.places import is_place, is_region

__all__ = ["I_AM", "NEAR", "ROLE_PATTERNS", "Check", "a_job_at", "said_near"]

I_AM = r"\bI(?:'m| am)(?: now| currently| still| actually)?"

# each pattern's check of (value, text, match), where its words cannot tell
Check = Callable[[str, str, re.Match[str]], bool]


def said_near(words: re.Pattern[str], text: str, match: re.Match[str]) -> bool:
    """Whether ``words`` occur in the message within :data:`NEAR` characters of the match (a bound: a
    check run for each match of a long text stays linear)."""
    return words.search(text, max(0, match.start() - NEAR), match.end() + NEAR) is not None


NEAR = 300


def a_job_at(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation after "I'm a ... at"; after a job's title, any name but a country's or a state's: one
    that opens with a first name ("I'm a lawyer at Clifford Chance"; not "I'm a regular at Sarah's") or
    that a town bears too ("a vet tech at Banfield", "a mechanic at Holden", "a lecturer at Oxford")."""
    if is_organisation(value):
        return True
    return is_role(match["role"]) and (
        is_organisation(value, first_name=True) or (is_place(value) and not is_region(value))
    )


def _worked_with(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation, not a town, in a message that tells no job left ("My manager at Tesco was awful",
    "My colleagues at Google threw me a leaving party", "Remember my boss at Canva? I quit.")."""
    return (
        is_organisation(value) and _WAS.match(text, match.end()) is None and not said_near(_LEFT, text, match)
    )


def _moved_over(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation, in a message that speaks of work: "jumped ship to Harbour Energy, better pay" (not
    "Went over to Tesco for milk", "Moved over to Monzo, better app", "Jumped ship to Android")."""
    return _worked_with(value, text, match) and said_near(_WORK, text, match)


def _named_firm(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation, which may be named by a first name: "a cafe called Rosie's", "a job at Morgan
    Stanley"."""
    return is_organisation(value, first_name=True)


_WAS = compile_rule(r"\s+used to\b")
_LEFT = compile_rule(
    r"\b(?i:I(?:'ve| have)? (?:just )?(?:quit|left|resigned)|leaving (?:party|do|drinks|card)|used to|former|"
    r"ex-|old job|previous|before I (?:quit|left)|remember)\b"
)
_WORK = compile_rule(
    r"\b(?i:job|role|team|boss|manager|pay|salary|position|hours|shifts?|colleagues|offer|hired|career|work)\b"
)
# what a business is, before its name: "a small bakery called", "a ramen spot called"
_A_BUSINESS = (
    r"(?:shop|store|bakery|cafe|café|coffee shop|restaurant|bar|pub|business|company|firm|agency|studio|"
    r"salon|clinic|practice|startup|start-up|consultancy|spot|place|hotel|farm|brewery|garage|bistro|deli|"
    r"nursery|school|charity)"
)


def _as_a_job(value: str, text: str, match: re.Match[str]) -> bool:
    """A job's title after an organisation's name ("I'm now at N26 as a backend dev", "moved to Razorpay as
    senior PM"; not "I'm at Sarah's as a guest", "I'm with Sarah as a mentor")."""
    return is_role(match["role"]) and is_organisation(value)


def _a_new_job(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation worked at, not one only spoken of ("New job at Google looks fun")."""
    return is_organisation(value) and _SPOKEN_OF.match(text, match.end()) is None


def _a_post_taken(value: str, text: str, match: re.Match[str]) -> bool:
    """A job's title or a post taken at an organisation ("accepted a postdoc at UBC", "landed an internship
    at Arup"; not "got a coffee at Pret", "a role with Sarah's team")."""
    someones = value.endswith("'s") and is_first_name(value[:-2])  # "a role with Sarah's team"
    post = is_role(match["role"]) or match["role"].split()[-1].lower() in _POSTS
    return (
        post
        and not someones
        and is_organisation(value, first_name=True)
        and _SPOKEN_OF.match(text, match.end()) is None  # "a placement at Great Ormond Street for my son"
    )


# after the firm: a post spoken of or had for someone else ("New job at Google looks fun", "New role at
# Stripe, for my sister!", "New job at Google? Congrats Tom!")
_SPOKEN_OF = compile_rule(
    rf"\s*\?|,?\s+(?:looks|sounds|seems|is|was|would|could|might|for (?:my|his|her|their|our) (?:{KIN}|son|"
    r"daughter|kids?|child|friend)|for (?:him|her|them)|for [A-Z][a-z]+|[A-Z][a-z]+ says)\b"
)
_POSTS = frozenset({"role", "position", "job", "post", "internship", "placement", "residency", "gig"})
_DROPPED_I = (
    r"(?:\bI(?:'ve| have| had|'d)?(?: just| finally| recently| now)? |(?:^|[.!?]\s+)(?i:just |finally )?)"
)


def _a_profile(value: str, text: str, match: re.Match[str]) -> bool:
    """A job's title, an organisation and a town, one after another ("Nurse, NHS Lothian, Edinburgh"; a
    headline's town may be left out: "nurse @ Mount Sinai"), not a former one ("Previous: cashier, Tesco,
    Leeds")."""
    said = match.groupdict()
    firm = said["firm"] if "firm" in said else said["obj"]
    town = said["town"] if "town" in said else said["obj"]
    role = match.start("role")
    said_from = sentence_start(text, role)  # its own sentence: "Hi Tom! Nurse, ...": "Hi Tom! Nurse, ..."
    return (
        is_role(match["role"])
        and is_organisation(firm, first_name=True)
        and (town is None or is_place(town))
        and _NOT_MINE.search(text, said_from, role) is None
        and _FORMER_TITLE.search(match["role"]) is None  # "Retired nurse, ..."
        and not any(is_first_name(w) for w in _NAMED.findall(text, said_from, role))
        and _AFTER_A_PROFILE.match(text, match.end()) is None
    )


# a line that is not the speaker's present job: a former one, someone else's, a post offered or wished for
# ("Previous: cashier, Tesco, Leeds", "My sister: nurse, ...", "Job ad: ...", "Dream job: ...")
_NOT_MINE = compile_rule(
    rf"\b(?i:previous(?:ly)?|former(?:ly)?|past|prior|before|used to|ex|retired|(?:my|our|his|her|their) "
    rf"(?:{KIN})|{KIN}|{'|'.join(RELATIVES)}|he|she|they|hire|hiring|job ad|ad|advert|vacancy|opening|dream|"
    r"applied|applying|apply|looking for|wanted|recruit\w*|interview\w*|shortlist\w*|fwd|from|sender|"
    r"candidate|offer(?:ed)?)\b"
)
_FORMER_TITLE = compile_rule(r"\b(?i:retired|former|ex|previous|past)\b")
# a name before the items: "Tom, 34, nurse, ..." (not a label or a greeting: "Job: nurse, ...", "Hi, ...")
_NAMED = compile_rule(
    r"(?<!I'm )(?<!I am )(?<!is )\b"
    r"(?!(?:Job|Title|Role|Position|Current|Currently|Now|Work|Hi|Hey|Hello|Cheers|"
    r"Thanks|Best|Regards|Profile|Bio|Me)\b)[A-Z][a-z]+\b"
)
# a verb after the items: someone else's ("Recruiter, Amazon, Seattle reached out", "... | London looks like")
_AFTER_A_PROFILE = compile_rule(
    r"\s+(?:is|was|are|were|has|had|reached|looks|sounds|seems|says|said|called|wants|just|posted|messaged|"
    r"emailed|until|till|turned|got rejected)\b|\s*[(—–-]\s*(?:\d{4}|until|till|interview|rejected|applied)"
)


_SEP = r"\s*[,|•·]\s*"  # between a profile's items: "Nurse, NHS Lothian", "Analyst | Standard Chartered"
_ITEM_START = rf"(?:^|[.!?:;]\s*['\"]?|\n\s*|{_SEP})"
_ROLE = r"(?P<role>[A-Za-z][\w-]*(?: [\w-]+){0,2})"
_FIRM = r"[A-Z][\w&-]*(?:'\w+)?(?: (?:[A-Z][\w&-]*(?:'\w+)?|of|&))*"  # ("McDonald's", not "Spotify'")
_TOWN = r"[A-Z][\w-]*(?:'\w+)?(?: [A-Z][a-z][\w-]*(?:'\w+)?)*"
_STATE = r"(?: [A-Z]{2})?(?![\w-]|'\w)"  # a US state's code after the town, left out: "Reno NV"


def _profile(firm: str, town: str) -> re.Pattern[str]:
    """A profile line's items, each after a comma or a bar: a job's title, the employer, the town ("Nurse,
    NHS Lothian, Edinburgh", "Senior Analyst | Standard Chartered | Singapore")."""
    return compile_rule(rf"{_ITEM_START}{_ROLE}{_SEP}(?P<{firm}>{_FIRM}){_SEP}(?P<{town}>{_TOWN}){_STATE}")


# a verb after the firm: the title is someone else's ("Product manager @ Atlassian is hiring")
_NO_VERB = r"(?!\s+(?:is|was|are|were|has|had|have|told|said|says|will|would|can|could|wants?|needs?|called))"


def _headline(firm: str, town: str, *, with_town: bool) -> re.Pattern[str]:
    """A headline's title at an employer, its town after a bar or a comma: "Data Engineer @ Spotify |
    Stockholm", "new job: nurse @ Mount Sinai"."""
    where = rf"(?:{_SEP}(?P<{town}>{_TOWN}){_STATE})" + ("" if with_town else "?")
    return compile_rule(rf"{_ITEM_START}{_ROLE} ?@ ?(?P<{firm}>{_FIRM})(?![\w&-]|'\w){_NO_VERB}{where}")


def _a_based_place(value: str, text: str, match: re.Match[str]) -> bool:
    """A place by its name ("toronto-based" typed in lower case too); after "I'm a", a job's title follows
    ("I'm a Toronto-based designer"; not "I'm a Paris-based fashion brand fan")."""
    title = _TITLE.match(text, match.end())  # after "I'm a": a job ("I'm Denver-based now" needs none)
    job = not match["i"] or re.search(r"\ban?\b", match["i"]) is None
    job = job or (title is not None and is_role(title["title"]))
    return job and (is_place(value) or is_place(value.title()))


_TITLE = compile_rule(
    r"(?P<title>(?: [\w-]+){0,3}?)"
    r"(?=[.,;:!?\n]|\s*$| (?:and|but|here|at|for|with|in|who|from|of)\b| \w+ing\b)"
)


ROLE_PATTERNS: list[tuple[re.Pattern[str], str, Check, str]] = [
    # "I'm a Toronto-based designer", "Denver-based nurse here" (not "a London-based company", "We hired a
    # Berlin-based agency", "Spotify, Stockholm-based, is hiring")
    (
        compile_rule(
            r"(?:(?P<i>\bI(?:'m| am) (?:a |an )?(?:\w+ )??)|(?:^|[.!?]\s+))"
            r"(?P<obj>(?(i)[A-Z]|[A-Za-z])[\w']*(?: [A-Z][\w']*)?)-based"
            # after "I'm a", not a firm's; at a sentence's start, the speaker's when "here" or a stop follows
            r"(?(i)(?! (?:company|firm|startup|agency|business)\b)|(?=(?: \w+){0,3} here\b|\s*[,.!?\n]|\s*$))"
        ),
        "location",
        _a_based_place,
        "-based",
    ),
    # "I moved to Leeds for a new job at the BBC", "Just relocated for a role with Google" (not "I applied for
    # a job at ...": only a move or a leave is for a job taken)
    (
        compile_rule(
            rf"(?:{SPEAKER} |(?:^|[.!?]\s+)(?:[Jj]ust |[Rr]ecently )?)"
            rf"(?i:moved|moving|relocated|relocating|came|left|quit)\b[^.!?\n]{{0,60}}? for "
            rf"(?:{JOB}|(?:a |the )?(?:new )?(?:role|position) )(?:at|with)\s+{OBJ}{END}"
        ),
        "employer",
        _named_firm,
        "job|role|position|post",
    ),
    # a profile line: "Nurse, NHS Lothian, Edinburgh", "I'm Priya, 29, product manager, Swiggy, Bangalore"
    (_profile("obj", "town"), "employer", _a_profile, ",|\\||•|·"),
    (_profile("firm", "obj"), "location", _a_profile, ",|\\||•|·"),
    (_headline("obj", "town", with_town=False), "employer", _a_profile, "@"),
    (_headline("firm", "obj", with_town=True), "location", _a_profile, "@"),
    # "jumped ship to Harbour Energy", "moved over to Aldi, better pay" (a firm, in a message about work; a
    # town is a move: graphmem.model.fact_patterns)
    (
        compile_rule(rf"{_DROPPED_I}(?i:jumped ship|moved over|switched over) to\s+{FIRM_NAME}(?![\w&'-])"),
        "employer",
        _moved_over,
        "jumped ship|moved over|switched over",
    ),
    # "fully remote for Shopify", "working remote for GitLab", "I work remotely for Canva" (not "my wife works
    # remote for ...": the speaker's own sentence or clause)
    (
        compile_rule(
            r"(?:\bI(?:'m| am)? |(?:^|[.!?,]\s+))(?:now |currently |still )?(?:fully |working |work )?"
            rf"remote(?:ly)? (?:for|at|with)\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _worked_with,
        "remote",
    ),
    # "I'm HR manager at Heineken", "I'm head chef at Dishoom": a job's title without an article
    (
        compile_rule(
            rf"{I_AM} (?P<role>(?:[A-Z]{{2,4}} |(?i:senior|junior|head|lead|chief|staff|principal) )?"
            rf"[a-z][\w-]*) (?:at|for|with)\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _as_a_job,
        " at | for | with ",
    ),
    # "I'm now at N26 as a backend dev", "moved to Razorpay as senior PM", "switched to Wise as a PM"
    (
        compile_rule(
            rf"(?:\bI(?:'m| am)(?: now| currently| still)? (?:at|with)|"
            rf"{_DROPPED_I}(?i:moved|switched|jumped|went)(?: over)? to)\s+{FIRM_NAME},? as (?:an? )?"
            r"(?P<role>[\w-]+(?: [\w-]+){0,2}?)(?![\w-])"
            r"(?=\s*[.,;!?\n]|\s*$|\s+(?:now|and|but|since|in|at|for)\b)"
        ),
        "employer",
        _as_a_job,
        " as ",
    ),
    # "quit blue bottle lol. new gig at Philz Coffee, closer to home" (not "Tom, new job at Google, says hi")
    (
        compile_rule(
            rf"(?:^|[.!?]\s+)(?i:new) (?:job|gig|role|position) (?:at|with)\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _a_new_job,
        "new ",
    ),
    # "accepted a postdoc at UBC", "landed an internship at Arup", "Just started a new role at Unilever"
    (
        compile_rule(
            rf"{_DROPPED_I}(?i:accepted|landed|took|taken|got|started) (?:a|an|the) (?:new )?"
            rf"(?P<role>(?:[\w-]+ ){{0,2}}?[\w-]+) (?:at|with)\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _a_post_taken,
        "accepted|landed|took|taken|got|started",
    ),
    # "my boss at Canva", "my colleagues at Arup", "my team at Monzo is hiring" (not "my old boss at
    # Coolblue", "my friend's boss at ...", "my office in Leeds")
    (
        compile_rule(
            r"(?<!')\b[Mm]y (?:current |new )?(?:boss|manager|line manager|supervisor|team lead|colleagues?|"
            r"co-?workers?|team|teammates|office|department) (?:at|over at)\s+"
            rf"{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _worked_with,
        "boss|manager|supervisor|team|colleague|co-?worker|office|department",
    ),
    # "I run a small bakery called Crumb & Co in Hobart", "I work at a ramen spot called Ippudo"
    (
        compile_rule(
            r"(?:\bI(?:'m| am)? |(?:^|[.!?,]\s+))(?:now |currently |still )?"
            r"(?:run|own|manage|co-own|work (?:at|for)|working (?:at|for))"
            rf" (?:a|an|my own|my|our) (?:[\w-]+ ){{0,3}}?{_A_BUSINESS} (?:called|named)\s+{FIRM_NAME}"
        ),
        "employer",
        _named_firm,
        "called|named",
    ),
]
