"""The fact key scheme (pure): one namespace for extracted and ``set_fact`` facts.

A key is ``[subject/]relation``. The subject is omitted for the user (``location``), and is a speaker's name
for facts a named speaker states about themselves in a multi-party conversation (``Caroline/location``); a
subject equal to the user id is the user. Relations have one canonical name; common aliases map onto it
(``city``, ``lives_in`` → ``location``).
"""

from __future__ import annotations

import re

__all__ = ["RELATIONS", "RELATION_ALIASES", "asks_of", "canonical_key", "key_words"]

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

RELATIONS: tuple[str, ...] = tuple(dict.fromkeys(RELATION_ALIASES.values()))
"""The canonical relations of the key scheme: ``location``, ``employer``, ``occupation``, ``name``, ``age``,
``partner``."""


def canonical_key(key: str, user_id: str | None = None) -> str:
    """The canonical form of a fact key: an alias relation is renamed (``city`` → ``location``), a subject
    naming the user (``me``, ``user`` or the user id) is dropped; any other key is returned unchanged."""
    subject, sep, relation = key.rpartition("/") if "/" in key else ("", "", key)
    norm = re.sub(r"[\s-]+", "_", relation.strip().lower())
    relation = RELATION_ALIASES.get(norm, relation)
    if sep and subject.strip().lower() in {"me", "user", "i", (user_id or "").lower()}:
        return relation
    return f"{subject}{sep}{relation}"


def key_words(key: str) -> str:
    """A key as words for comparing it with a question by meaning: its subject, then its relation with every
    alias of it (``Sam/location`` -> ``Sam location, city, home, ..., town``: bge-small puts "Where do I
    work now?" nearer ``location`` than ``employer`` by their names alone, 0.595 against 0.589, and nearer
    the employer's aliases than the location's, 0.655 against 0.620); any other key its own words
    (``preference:green_tea`` -> ``preference green tea``)."""
    subject, _, relation = key.rpartition("/")
    names = [n for n, canonical in RELATION_ALIASES.items() if canonical == relation] or [relation]
    words = ", ".join(dict.fromkeys(" ".join(re.split(r"[_:]+", n)).strip() for n in names))
    return f"{subject} {words}".strip()


_ASKED_BY: dict[str, frozenset[str]] = {
    relation: frozenset(words.split())
    for relation, words in {
        "location": "live lives living home hometown city town country based reside resides residence stay "
        "staying location address neighbourhood neighborhood area",
        "employer": "work works working job company employer employed workplace office firm",
        "occupation": "work works working job occupation profession career role position title living",
        "name": "name called",
        "age": "age old born birthday",
        "partner": "partner spouse husband wife boyfriend girlfriend married dating fiance fiancee engaged "
        "relationship",
    }.items()
}
"""The words a question about each relation of the key scheme uses ("Where do I live?", "Who do I work
for?", "How old am I?", "Am I married?"): a question without one of them is not about the relation, however
near its vector falls (every question is nearest to some relation)."""
_WORD = re.compile(r"[a-z]+")


def asks_of(query: str) -> set[str]:
    """The relations of the key scheme whose words the query uses (lower-cased word match)."""
    words = set(_WORD.findall(query.lower()))
    return {relation for relation, cues in _ASKED_BY.items() if words & cues}
