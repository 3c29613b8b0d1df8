"""Where one works, said by a job's title or by the people one works with (pure): "I'm a lawyer at Clifford
Chance", "a vet tech at Banfield", "my boss at Canva", "I run a bakery called Crumb & Co", "I work at a ramen
spot called Ippudo". :mod:`graphmem.model.work_patterns` holds the other wordings of work and uses
:func:`a_job_at`; :mod:`graphmem.model.state_patterns` holds both with the patterns of where one lives."""

from __future__ import annotations

import re
from collections.abc import Callable

from graphmem.model.pattern_pieces import END, FIRM_NAME, JOB, OBJ, SPEAKER
from graphmem.model.people import is_first_name, is_organisation, is_role
from graphmem.model.places import is_place, is_region

__all__ = ["I_AM", "ROLE_PATTERNS", "a_job_at"]

I_AM = r"\bI(?:'m| am)(?: now| currently| still| actually)?"

Check = Callable[[str, str, re.Match[str]], bool]


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
    """An organisation, not a town ("my team in Leeds"), nor what was ("My manager at Tesco was awful")."""
    return is_organisation(value) and _WAS.match(text, match.end()) is None


def _named_firm(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation, which may be named by a first name: "a cafe called Rosie's", "a job at Morgan
    Stanley"."""
    return is_organisation(value, first_name=True)


_WAS = re.compile(r"\s+(?:was|were|used to|had)\b")
# what a business is, before its name: "a small bakery called", "a ramen spot called"
_A_BUSINESS = (
    r"(?:shop|store|bakery|cafe|café|coffee shop|restaurant|bar|pub|business|company|firm|agency|studio|"
    r"salon|clinic|practice|startup|start-up|consultancy|spot|place|hotel|farm|brewery|garage|bistro|deli|"
    r"nursery|school|charity)"
)


def _as_a_job(value: str, text: str, match: re.Match[str]) -> bool:
    """A job's title after the name, which may open with a first name ("I'm now at N26 as a backend dev",
    "moved to Razorpay as senior PM"; not "I'm at Sarah's as a guest")."""
    return is_role(match["role"]) and is_organisation(value, first_name=True)


def _a_new_job(value: str, text: str, match: re.Match[str]) -> bool:
    """An organisation worked at, not one only spoken of ("New job at Google looks fun")."""
    return is_organisation(value) and _SPOKEN_OF.match(text, match.end()) is None


def _a_post_taken(value: str, text: str, match: re.Match[str]) -> bool:
    """A job's title or a post taken at an organisation ("accepted a postdoc at UBC", "landed an internship
    at Arup"; not "got a coffee at Pret", "a role with Sarah's team")."""
    someones = value.endswith("'s") and is_first_name(value[:-2])  # "a role with Sarah's team"
    post = is_role(match["role"]) or match["role"].split()[-1].lower() in _POSTS
    return post and not someones and is_organisation(value, first_name=True)


_SPOKEN_OF = re.compile(r"\s+(?:looks|sounds|seems|is|was|would|could|might|\?)")
_POSTS = frozenset(
    {"role", "position", "job", "post", "internship", "placement", "residency", "contract", "gig"}
)
# a desk one is put through to on the phone, not an employer: "transferred to Customer Services"
_NO_DESK = r"(?!(?:the )?(?:[A-Z]\w+ )?(?:Services?|Support|Desk|Helpdesk|Department|Line|Team)\b)"
_DROPPED_I = (
    r"(?:\bI(?:'ve| have| had|'d)?(?: just| finally| recently| now)? |(?:^|[.!?]\s+)(?i:just |finally )?)"
)


def _a_profile(value: str, text: str, match: re.Match[str]) -> bool:
    """A job's title, an organisation and a town, one after another ("Nurse, NHS Lothian, Edinburgh"), not
    a former one ("Previous: cashier, Tesco, Leeds")."""
    said = match.groupdict()
    firm, town = said.get("firm") or said["obj"], said.get("town") or said["obj"]
    line = text.rfind("\n", 0, match.start()) + 1
    return (
        is_role(match["role"])
        and is_organisation(firm, first_name=True)
        and is_place(town)
        and _FORMER.search(text, line, match.start() + 1) is None
    )


_FORMER = re.compile(r"\b(?i:previous(?:ly)?|former(?:ly)?|past|prior|before|used to|ex)\b")


def _profile(firm: str, town: str) -> re.Pattern[str]:
    """A profile line's items, each after a comma: a job's title, the employer, the town (a US state's code
    after it left out: "Reno NV")."""
    return re.compile(
        r"(?:^|[.!?:;]\s*|\n\s*|,\s+)(?P<role>[A-Za-z][\w-]*(?: [\w-]+){0,2}),\s+"
        rf"(?P<{firm}>[A-Z][\w&'-]*(?: (?:[A-Z][\w&'-]*|of|&))*),\s+"
        rf"(?P<{town}>[A-Z][\w'-]*(?: [A-Z][a-z][\w'-]*)*)(?: [A-Z]{{2}})?(?![\w'-])"
    )


ROLE_PATTERNS: list[tuple[re.Pattern[str], str, Check, str]] = [
    # "I moved to Leeds for a new job at the BBC", "Just relocated for a role with Google" (not "I applied for
    # a job at ...": only a move or a leave is for a job taken)
    (
        re.compile(
            rf"(?:{SPEAKER} |(?:^|[.!?]\s+)(?:[Jj]ust |[Rr]ecently )?)"
            rf"(?i:moved|moving|relocated|relocating|came|left|quit)\b[^.!?\n]{{0,60}}? for "
            rf"(?:{JOB}|(?:a |the )?(?:new )?(?:role|position) )(?:at|with)\s+{OBJ}{END}"
        ),
        "employer",
        _named_firm,
        "job|role|position|post",
    ),
    # a profile line: "Nurse, NHS Lothian, Edinburgh", "I'm Priya, 29, product manager, Swiggy, Bangalore"
    (_profile("obj", "town"), "employer", _a_profile, ", "),
    (_profile("firm", "obj"), "location", _a_profile, ", "),
    # "I'm HR manager at Heineken", "I'm head chef at Dishoom": a job's title without an article
    (
        re.compile(
            rf"{I_AM} (?P<role>(?:[A-Z]{{2,4}} |(?i:senior|junior|head|lead|chief|staff|principal) )?"
            rf"[a-z][\w-]*) (?:at|for|with)\s+{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _as_a_job,
        " at | for | with ",
    ),
    # "I'm now at N26 as a backend dev", "moved to Razorpay as senior PM", "switched to Wise as a PM"
    (
        re.compile(
            rf"(?:\bI(?:'m| am)(?: now| currently| still)? (?:at|with)|"
            rf"{_DROPPED_I}(?i:moved|switched|jumped|went)(?: over)? to)\s+{FIRM_NAME},? as (?:an? )?"
            r"(?P<role>[\w-]+(?: [\w-]+){0,2}?)(?![\w-])"
            r"(?=\s*[.,;!?\n]|\s*$|\s+(?:now|and|but|since|in|at|for)\b)"
        ),
        "employer",
        _as_a_job,
        " as ",
    ),
    # "new gig at Philz Coffee, closer to home", "got transferred to South Central Ambulance Service"
    (
        re.compile(
            rf"(?:(?:^|[.!?,]\s+)(?i:new) (?:job|gig|role|position)|{_DROPPED_I}(?:got |was |been )?"
            rf"(?i:transferred)) (?:at|with|to)\s+{_NO_DESK}{FIRM_NAME}(?![\w&'-])"
        ),
        "employer",
        _a_new_job,
        "new |transferred",
    ),
    # "accepted a postdoc at UBC", "landed an internship at Arup", "Just started a new role at Unilever"
    (
        re.compile(
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
        re.compile(
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
        re.compile(
            r"(?:\bI(?:'m| am)? |(?:^|[.!?,]\s+))(?:now |currently |still )?"
            r"(?:run|own|manage|co-own|work (?:at|for)|working (?:at|for))"
            rf" (?:a|an|my own|my|our) (?:[\w-]+ ){{0,3}}?{_A_BUSINESS} (?:called|named)\s+{FIRM_NAME}"
        ),
        "employer",
        _named_firm,
        "called|named",
    ),
]
