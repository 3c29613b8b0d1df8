"""Whether a name is an organisation's rather than a person's or a place's (pure, offline). "I'm joining Dyson
on 4 January" names an employer; "I'm joining Sarah on Friday" a friend and "I start at Oxford in October" a
place; the words around them are the same. People's first names come from the ``faker`` package, which ships
the given names of some eighty locales (its generic ``en`` list of ~7,000 rare US names is left out: it holds
"Orange", "Sky" and "Dell"); places from :mod:`graphmem.model.places`. Read once, on first use (~0.4 s),
when a turn names a firm in the words of :mod:`graphmem.model.state_patterns` or of a plan joined, started or
signed."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache

from graphmem.model.dates import MONTHS, WEEKDAYS
from graphmem.model.pattern_pieces import NAMED_PLACE, NOT_SOMEONE, PLACE_END, compile_rule
from graphmem.model.places import is_place, is_region, without_accents

__all__ = [
    "AFTER_FIRM",
    "NOT_A_NAME",
    "RELATIVES",
    "firm_and_place",
    "is_employer",
    "is_first_name",
    "is_organisation",
    "is_role",
    "job_words",
    "name_only",
    "names_a_kind",
]

_LEFT_OUT = frozenset({"en"})
# the words that name a relative before or instead of a name: "Mum", "Uncle Joe"
RELATIVES = frozenset(
    {"mum", "mom", "mam", "mummy", "mommy", "dad", "daddy", "papa", "mama", "nan", "nana", "nanna", "gran",
     "granny", "grandma", "grandpa", "grandad", "granddad", "auntie", "aunty", "aunt", "uncle", "cousin",
     "father", "mother", "sister", "brother"}
)  # fmt: skip
# capitalised words that name no one, lower-cased: a sentence adverb or a pronoun, a relative ("Mum's
# birthday"), a day or a month ("May" is a name too), a day said relatively ("Today's plan", "Everyone's")
NOT_A_NAME = (
    frozenset(w.lower() for w in NOT_SOMEONE)
    | RELATIVES
    | frozenset(WEEKDAYS)
    | (frozenset(MONTHS) - {"may"})
    | {"i", "you", "your", "my", "the", "here", "else", "today", "tomorrow", "yesterday", "tonight", "week"}
    | {"month", "year", "weekend", "everyone", "everybody", "someone", "somebody", "anyone", "anybody"}
    | {"nobody"}
)
# and a title or a place of study: "Dr Patel", "University"
_NOT_AN_EMPLOYER = RELATIVES | frozenset(
    {"dr", "mr", "mrs", "ms", "miss", "mx", "prof", "professor", "sir", "dame", "lady", "lord",
     "coach", "captain", "officer", "uni", "class",
     "year", "grade", "level", "week", "day", "step", "stage", "chapter", "page", "number", "i", "it", "he",
     "she", "they", "we", "you", "this", "that", "there", "them", "him", "her", "us", "me", "monday",
     "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)  # fmt: skip
# a place of study named alone ("I start at University in September"); with its name it is an employer too
# ("a postdoctoral researcher at the University of Michigan", "College of Policing")
_STUDY_NAMED_ALONE = frozenset({"university", "college", "school"})
_WORD = compile_rule(r"[\w&'-]+")


@cache
def _first_names() -> frozenset[str]:
    import faker.providers.person as person  # the given names of every locale faker ships

    names: set[str] = set()
    for module in pkgutil.iter_modules(person.__path__):
        if module.name in _LEFT_OUT:
            continue
        provider = importlib.import_module(f"{person.__name__}.{module.name}").Provider
        for attribute, value in vars(provider).items():  # (ja_JP's, zh_CN's also as written in English)
            if attribute.startswith(("first_names", "first_romanized_names")) and isinstance(
                value, list | tuple | dict
            ):
                names.update(str(n).title() if str(n).isupper() else str(n) for n in value)
    return frozenset(names | {without_accents(n) for n in names})


def is_first_name(word: str) -> bool:
    """Whether ``word`` is a person's given name in one of faker's locales ("Jake", "Priya", "Zoë")."""
    return without_accents(word) in _first_names()


def is_organisation(name: str, *, first_name: bool = False) -> bool:
    """Whether ``name`` (as written, "the" allowed) can name an employer: a capitalised name that is not a
    person's first name, a relative, a title, a school or a place ("Dyson", "the BBC", "Ericsson"; not
    "Sarah", "Mum", "Dr Patel", "Uni", "Oxford", "the Netherlands"). ``first_name``: words seldom said of a
    person let a first name be a firm's ("I'm starting at Meta": not a possessive, "Sarah's")."""
    bare = re.sub(r"^the\s+", "", name.strip())
    words = _WORD.findall(bare)
    if not words or not words[0][0].isupper():
        return False
    first = re.sub(r"'s$", "", words[0])  # "Sarah's"
    # a place, unless a first name may be a firm's and this one is ("Meta" is a town too)
    if is_place(bare) and not (first_name and len(words) == 1 and is_first_name(first)):
        return False
    if first.casefold() in _NOT_AN_EMPLOYER or (first.casefold() in _STUDY_NAMED_ALONE and len(words) == 1):
        return False
    if first_name and first == words[0]:
        return True
    # a word only an organisation's name holds overrules a first name: "Alberta Health Services", "Morgan
    # Stanley & Co", "Victoria University"
    return without_accents(first) not in _first_names() or (
        len(words) > 1 and _ORGANISATION_WORD.search(bare) is not None
    )


def names_a_kind(name: str) -> bool:
    """Whether ``name`` ends with the word of an organisation's kind or legal form ("Jollibee Foods
    Corporation", "Acme Ltd", "Leeds City Council")."""
    words = _WORD.findall(name)
    return len(words) > 1 and _ORGANISATION_WORD.fullmatch(words[-1]) is not None


@cache
def job_words() -> frozenset[str]:
    """The head nouns of job titles (faker's, and a few more): "analyst", "nurse", "lead"."""
    from faker.providers.job.en_US import Provider  # some 640 job titles: their head nouns

    heads = {re.findall(r"[A-Za-z]+", job.split(",")[0])[-1].lower() for job in Provider.jobs}
    return frozenset(heads | _MORE_JOB_WORDS)


# head nouns of roles faker's titles lack
_MORE_JOB_WORDS = frozenset(
    {"lead", "dev", "intern", "auditor", "paralegal", "cashier", "chef", "cook", "driver", "assistant",
     "associate", "partner", "founder", "cofounder", "co-founder", "owner", "head", "specialist", "advisor",
     "adviser", "coordinator", "supervisor", "nurse", "carer", "caregiver", "postdoc", "fellow", "trainee",
     "mechanic", "receptionist", "tech", "servant", "electrician", "plumber", "bartender", "waiter",
     "waitress", "cleaner", "porter", "barber", "hairdresser", "stylist", "teller", "courier", "guard",
     "labourer", "laborer", "welder", "carpenter", "baker", "butcher", "vet", "housekeeper", "nanny",
     "dispatcher", "machinist", "builder", "roofer", "painter", "decorator", "gardener", "landscaper",
     "farmer", "steward", "attendant", "recruiter", "salesman", "salesperson", "rep", "pm", "swe", "sde",
     "sre", "cto", "ceo", "cfo", "coo", "vp", "gp", "physio"}
)  # fmt: skip


def is_role(phrase: str) -> bool:
    """Whether ``phrase`` names a job by its last word ("Senior analyst", "Product lead", "staff nurse"; not
    "Lunch", "Drinks"): the head nouns of faker's job titles, and a few more."""
    words = re.findall(r"[A-Za-z-]+", phrase)
    return bool(words) and words[-1].lower() in job_words()


# the words of an organisation's name, after its first: its kind or its legal form
_ORGANISATION_WORD = compile_rule(
    r"&|\b(?:Services?|Health|Healthcare|Hospital|Infirmary|Trust|Bank|Council|University|College|School|"
    r"Academy|Group|Holdings|Ltd|Limited|Inc|LLC|LLP|PLC|plc|Corp|Corporation|Company|Co|Partners|Associates|Capital|"
    r"Insurance|Energy|Motors|Airlines|Airways|Media|Systems|Solutions|Technologies|Technology|Labs|"
    r"Foods|Pharmaceuticals|Consulting|Industries|International|Authority|Agency|Institute|Foundation|"
    r"Studios|Games|Software|Logistics|Construction|Engineering|Retail|Stores|Hotels|Resorts)\b"
)


# the last word of a name one joins as a member, not as staff: "PureGym", "Anytime Fitness", "the Labour
# Party", "Ashford Town FC", "the Chess Club"
_MEMBERSHIP = compile_rule(
    r"(?i:gym|fitness|club|party|society|league|FC|choir|scouts|guides|brownies|cubs|watchers|crossfit|yoga|"
    r"pilates|zumba|bootcamp|toastmasters)$"
)


def is_employer(name: str, *, first_name: bool = False) -> bool:
    """Whether ``name``, joined or started at with no job or role said beside it, is an employer: an
    organisation (:func:`is_organisation`) one does not join as a member ("PureGym", "Anytime Fitness", "the
    Labour Party", "Weight Watchers") nor as a student ("the University of Leeds")."""
    return (
        is_organisation(name, first_name=first_name)
        and _MEMBERSHIP.search(name.strip()) is None
        and _STUDIED_AT.search(name) is None  # "I started at the University of Leeds": a student's
    )


_STUDIED_AT = compile_rule(r"\b(?:University|College|School|Sixth Form|Polytechnic)\b")


_PLACE_TAIL = compile_rule(r"(?:\s+in\s+|,\s*)(?=\S)")


def firm_and_place(value: str, text: str, end: int) -> tuple[str, str | None]:
    """An employer's name and the place said with it, where the words after the name (``text`` from
    ``end``) or its own last words name one: "Atlassian in Sydney", "KPMG in Toronto", "Deloitte, Dublin",
    "ikea in malmö" (not "Bank of America", "Theatre in the Park")."""
    after = AFTER_FIRM.match(text, end)
    if after is not None and is_place(after["obj"]):
        return value, after["obj"]
    for cut in _PLACE_TAIL.finditer(value):
        if is_place(place := value[cut.end() :]):
            return value[: cut.start()], place
    own = _ITS_TOWN.match(value)  # "Revolut's Krakow (office)", "TCS Chennai (branch)"
    if (
        own is not None
        and is_place(own["town"])
        and (
            own["s"]
            or _A_SITE.match(text, end)
            # a firm by its initials, then its town ("TCS Chennai"; not "Deutsche Bank", "Network Rail")
            or (
                _ACRONYM.fullmatch(own["firm"]) is not None
                and not is_region(own["town"])
                and not names_a_kind(value)  # "TBC Bank", "HSBC Bank": the kind, not a town named Bank
            )
        )
    ):  # "Revolut's Krakow office", "TCS Chennai" (not "Air New Zealand", "Bank of America")
        return own["firm"], own["town"]
    # a town no gazetteer holds, after a name that is a firm's by its kind or its initials
    named = _NAMED_IN.search(value)
    if named is not None and (
        names_a_kind(firm := value[: named.start()])
        or _ACRONYM.fullmatch(firm.removeprefix("the ")) is not None
    ):
        return firm, None  # "Jollibee Foods Corporation in Pasig", "the BBC in Pacific Quay"
    return value, None


_ITS_TOWN = compile_rule(r"(?P<firm>.+?)(?P<s>'s)? (?P<town>[A-Z][\w-]+(?: [A-Z][\w-]+)?)$")
_ACRONYM = compile_rule(r"[A-Z]{2,6}")
_A_SITE = compile_rule(r"\s+(?:office|branch|site|campus|plant|store|hub|HQ|headquarters)\b")
_NAMED_IN = compile_rule(r"\s+in\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*$")


AFTER_FIRM = compile_rule(rf"(?:\s+(?:here\s+)?in\s+|,\s*(?:in\s+)?){NAMED_PLACE}{PLACE_END}")


# the words of a firm's name between its capitalised ones ("Bank of America", "Marks and Spencer")
_PARTICLES = frozenset(
    {"of", "and", "&", "the", "for", "in", "at", "by", "on", "de", "da", "du", "van", "von", "der", "la",
     "le", "y", "hospital", "school", "college", "university", "council", "bank", "library", "clinic",
     "surgery", "centre", "center", "academy", "trust"}
)  # fmt: skip
# ("Theatre in the Park", "Pizza on the Park", "St. Mary's hospital"; a street is cut: _STREET)
_STREET = compile_rule(
    r"\s+on (?:\d|[A-Z][\w'-]*(?: [A-Z][\w'-]*)* (?:Road|Rd|Street|St|Avenue|Ave|Lane|Way|Boulevard|"
    r"Square)\b)"
)


_LINKS = frozenset({"of", "and", "&", "the", "for", "in", "at", "by", "on"})  # (not "hospital", "school")


def name_only(value: str) -> str:
    """A firm's name up to its first word in lower case that is no particle, less the particles it ends with:
    "Target corporate" -> "Target", "Foyles on Charing Cross Road" -> "Foyles", "Turkish Airlines in revenue
    management" -> "Turkish Airlines" (a name typed in lower case is kept: "ikea")."""
    value = _STREET.split(value)[0]  # "Foyles on Charing Cross Road", "starbucks on 5th ave"
    if not value[:1].isupper():
        return value
    words = value.split(" ")
    cut = next((i for i, w in enumerate(words[1:], 1) if w[:1].islower() and w not in _PARTICLES), len(words))
    while cut > 1 and words[cut - 1] in _LINKS:
        cut -= 1  # a link word the name did not go on with: "Turkish Airlines in revenue management"
    return " ".join(words[:cut])
