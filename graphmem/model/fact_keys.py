"""The fact key scheme (pure): one namespace for extracted and ``set_fact`` facts.

A key is ``[subject/]relation``. The subject is omitted for the user (``location``), and is a speaker's name
for facts a named speaker states about themselves in a multi-party conversation (``Caroline/location``); a
subject equal to the user id is the user. Relations have one canonical name; common aliases map onto it
(``city``, ``lives_in`` → ``location``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphmem.model.pattern_pieces import KIN
from graphmem.model.people import NOT_A_NAME, is_first_name
from graphmem.model.scopes import person_of

__all__ = [
    "PEOPLE_ROLES",
    "RELATIONS",
    "RELATION_ALIASES",
    "asked_about",
    "asks_of",
    "canonical_key",
    "is_relation_key",
    "key_words",
    "who_is",
    "who_is_named",
]  # fmt: skip

RELATION_ALIASES: dict[str, str] = {
    alias: canonical
    for canonical, aliases in {
        "location": ("city", "home", "home_city", "current_city", "lives_in", "residence", "lives", "town"),
        "employer": ("company", "works_at", "workplace", "work_place", "job_company"),
        "occupation": ("job", "job_title", "profession", "work_as", "role_at_work"),
        "name": ("full_name", "first_name"),
        "age": ("years_old",),
        "partner": ("spouse", "husband", "wife", "boyfriend", "girlfriend"),
    }.items()
    for alias in (canonical, *aliases)
}

PEOPLE_ROLES: dict[str, tuple[str, ...]] = {
    "partner": ("wife", "husband", "partner", "boyfriend", "girlfriend", "fiancée", "fiancé", "fiancee",
                "fiance", "spouse"),
    "manager": ("manager", "line manager", "boss", "supervisor"),
    "mother": ("mother", "mum", "mom", "mam", "mummy", "mommy"),
    "father": ("father", "dad", "daddy"),
    "dentist": ("dentist",),
    "doctor": ("doctor", "gp"),
    "therapist": ("therapist", "counsellor", "counselor"),
    "landlord": ("landlord", "landlady"),
}  # fmt: skip
"""The relations whose value is a person one has one of at a time, and the words that name each in a turn or
a question (graphmem.model.relations: "my boss Tom" is ``manager: Tom``; a new one supersedes the old). The
words are not key aliases: a key set by hand as ``boss`` stays ``boss``, as stores before round 62 hold it
(renaming it on read would hide it)."""

RELATIONS: tuple[str, ...] = tuple(dict.fromkeys([*RELATION_ALIASES.values(), *PEOPLE_ROLES]))
"""The canonical relations of the key scheme: ``location``, ``employer``, ``occupation``, ``name``, ``age``,
``partner``, and the people one has one of at a time (``manager``, ``mother``, ``father``, ``dentist``,
``doctor``, ``therapist``, ``landlord``)."""


def canonical_key(key: str, user_id: str | None = None) -> str:
    """The canonical form of a fact key: an alias relation is renamed (``city`` → ``location``), a subject
    naming the user (``me``, ``user`` or the user id; ``user_id`` may be the tenant key of one of the user's
    session scopes) is dropped; any other key is returned unchanged."""
    subject, sep, relation = key.rpartition("/") if "/" in key else ("", "", key)
    norm = re.sub(r"[\s-]+", "_", relation.strip().lower())
    relation = RELATION_ALIASES.get(norm, relation)
    if sep and subject.strip().lower() in {"me", "user", "i", person_of(user_id or "").lower()}:
        return relation
    return f"{subject}{sep}{relation}"


def key_words(key: str) -> str:
    """A key as words for comparing it with a question by meaning: its subject, then its relation with every
    alias of it (``Sam/location`` -> ``Sam location, city, home, ..., town``: bge-small puts "Where do I
    work now?" nearer ``location`` than ``employer`` by their names alone, 0.595 against 0.589, and nearer
    the employer's aliases than the location's, 0.655 against 0.620); any other key its own words
    (``preference:green_tea`` -> ``preference green tea``)."""
    subject, _, relation = key.rpartition("/")
    aliases = [n for n, canonical in RELATION_ALIASES.items() if canonical == relation]
    names = aliases or list(PEOPLE_ROLES.get(relation, ())) or [relation]
    words = ", ".join(dict.fromkeys(" ".join(re.split(r"[_:]+", n)).strip() for n in names))
    return f"{subject} {words}".strip()


# the one asked about, lower-cased: the speaker, a relative ("my sister"), a name ("sam"; not "it", "my car")
_WHO = (
    rf"(?:i|we|you|(?:my|his|her|their|our) (?:{KIN})|"
    r"(?!(?:it|this|that|there|the|a|an|my|his|her|their|our|your)\b)[a-z]+)"
)


def who_is(words: str) -> str:
    """How a question asks who someone of ``words`` is: "Who is my boss now?", "What's my GP's name?", "What
    is my landlady called?" (not "What did my boss say?": what they did, not who they are)."""
    whose = rf"(?:my|his|her|their|our) (?:new |current )?(?:{words})"
    return rf"who(?:'s| is| was| are) {whose}\b|{whose}'s name|what(?:'s| is) {whose} called|name of {whose}"


_ASKED_BY: dict[str, re.Pattern[str]] = {
    relation: re.compile(rf"\b(?:{words})\b")
    for relation, words in {
        "location": rf"where (?:do|does|did|am|is|are) {_WHO} (?:live|living|stay|staying|based|reside)|"
        r"(?:live|lives|living|based|reside|resides) in|where(?:'s| is) home|"
        r"(?:my|his|her|their|our) (?:home|hometown|home town|city|town|country|address|neighbou?rhood)",
        "employer": rf"where (?:do|does|did|am|is|are) {_WHO} (?:work|working|employed)|"
        rf"who (?:do|does|did|am|is|are) {_WHO} (?:work|working) for|work(?:s|ing)? (?:at|for)|"
        r"employed|employer|"
        r"(?:my|his|her|their) (?:job|work|company|employer|firm|workplace)",
        "occupation": rf"what (?:do|does) {_WHO} do(?: for (?:a living|work))?|for a living|"
        r"work(?:s|ing)? as|"
        r"(?:my|his|her|their) (?:job|occupation|profession|career|role|job title)",
        "name": r"(?:my|his|her|their) name|what am i called|call me",
        "age": rf"how old (?:am|is|are) {_WHO}|(?:my|his|her|their) age|when (?:was|were) {_WHO} born|"
        r"(?:my|his|her|their) birthday",
        "partner": r"(?:my|his|her|their) (?:partner|spouse|husband|wife|boyfriend|girlfriend|fianc[ée]e?)|"
        r"married|"
        rf"engaged|who (?:am|is|are) {_WHO} (?:dating|seeing)|relationship status",
        **{r: who_is("|".join(map(re.escape, words))) for r, words in PEOPLE_ROLES.items() if r != "partner"},
    }.items()
}
"""How a question asks about each relation of the key scheme ("Where do I live?", "Who does Sam work for?",
"How old am I?", "Am I married?"), as phrases rather than words: "What's my dog called?", "How old is my
car?", "Is the post office open?" ask about none. A question that asks about no relation is not about one,
however near its vector falls (every question is nearest to some relation)."""


def asks_of(query: str) -> set[str]:
    """The relations of the key scheme the query asks about (:data:`_ASKED_BY`, lower-cased)."""
    text = query.lower().replace("\u2019", "'")
    return {relation for relation, asked in _ASKED_BY.items() if asked.search(text)}


_RELATIVE = re.compile(rf"\b(?:my|his|her|their|our) ({KIN})\b")
# "Who is Leah?", "who's phyllis", "Who is Leah to me?", "remind me who Sunil is" (any case: people type so)
_TITLED = r"(?:(?:dr|mr|mrs|ms|mx|prof)\.?\s+)?"
_WHO_IS = re.compile(
    rf"\bwho(?:'s| is| was)\s+{_TITLED}(?P<name>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)"
    r"\s*(?:\?|$|,|to me|to you|again|exactly|\.)"
    rf"|\bwho\s+{_TITLED}(?P<before>[^\W\d_][\w'-]*)\s+(?:is|was)\b",
    re.I,
)


@lru_cache(maxsize=256)
def who_is_named(query: str) -> frozenset[str]:
    """The names a question asks who they are, lower-cased ("Who is Leah?", "who's ricky", "Who is Dr.
    Patel?", "Who is Tom Becker?" -> leah, ricky, patel, tom becker): what a relation fact keyed by the person
    says (``person:Leah: sister``, graphmem.model.relations). A name is capitalised, or a given name when
    typed in lower case: "Who is coming?", "who was there" name nobody."""
    text = query.replace("\u2019", "'")
    names = {m["name"] or m["before"] for m in _WHO_IS.finditer(text)}
    return frozenset(n.lower() for n in names if _a_name(n.split()[0]))


def _a_name(word: str) -> bool:
    if word.lower() in NOT_A_NAME:
        return False
    return word[:1].isupper() or is_first_name(word.capitalize())


def asked_about(query: str, names: set[str]) -> set[str]:
    """Who a question asks about, lower-cased: the names in it (``names``) and the relatives it names after a
    possessive ("Where does my sister live?" asks about ``sister``: the subject of ``sister/location``)."""
    return names | set(_RELATIVE.findall(query.lower()))


def is_relation_key(key: object) -> bool:
    """Whether a fact key is one of the people in a user's life (``person:Ana``, ``manager``; a speaker's too:
    ``Caroline/person:Rob``; graphmem.model.relations): who one's people are, which recall reads with the
    tenant's profile and which no plan changes."""
    relation = str(key).rpartition("/")[2]
    return relation.startswith("person:") or relation in PEOPLE_ROLES
