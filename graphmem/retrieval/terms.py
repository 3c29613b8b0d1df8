"""Words of a query: content terms for full text and coverage, proper names, and the Lucene query. Pure."""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import UTC, datetime

from graphmem.model.date_queries import QueryDates, query_dates
from graphmem.model.intent import named_entities
from graphmem.model.people import NOT_A_NAME, is_first_name
from graphmem.model.tokens import compound_parts, index_tokens

STOP_WORDS = frozenset(  # English function words dropped from full-text queries
    (  # noqa: SIM905
        "a an the and or but if of to in on at by for with about against between into through during "
        "before after above below from up down out off over under again further then once here there all "
        "any both each few more most other some such no nor not only own same so than too very can will "
        "just should now is are was were be been being have has had having do does did doing i me my "
        "myself we our ours you your yours he him his she her hers it its they them their what which who "
        "whom this that these those am would could shall may might must how when where why s t don "
        "whats thats im ive dont didnt doesnt cant isnt wasnt"  # as typed without the apostrophe
    ).split()
)
AGENDA_WORDS = frozenset(
    {
        *("anything", "something", "happening", "happened", "happen", "going", "doing", "got", "get"),
        *("planned", "plans", "plan"),
        *("schedule", "scheduled", "agenda", "calendar", "diary", "free", "busy", "coming", "up", "on"),
        *("morning", "afternoon", "evening", "night"),
    }
)
"""What a question about a day's agenda asks with besides its date ("What's happening tomorrow?", "anything
on tmrw?", "What have I got on Friday morning?", "Am I free on Saturday?"): no word of what is asked for."""
_CONTRACTED = re.compile(  # a function word contracted is a stop word ("what's", "I've"; not "Will's")
    r"(?:what|that|it|who|how|there|here|where|when|why|let|i|you|we|they|he|she)['\u2019](?:s|ve|re|m|d|ll)"
    r"|[a-z]+n['\u2019]t"
)
LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


def query_terms(text: str) -> list[str]:
    """Lower-case content words of a query (stop words dropped, order kept, no repeats), cut as the full-text
    index cuts text (:func:`graphmem.model.tokens.index_tokens`: "parse_config" and "Zürich" are one term
    each), then the words inside its compound terms ("parse", "config"), which formation adds to a memory's
    search text: the same identifier is found whether the query writes it whole or in words."""
    seen: dict[str, None] = {}
    for token in [*index_tokens(text), *compound_parts(text)]:
        if token not in STOP_WORDS and not _CONTRACTED.fullmatch(token) and len(token) > 1:
            seen.setdefault(token, None)
    return list(seen)


def keywords(query: str, as_of: datetime | None, speakers: Collection[str] = ()) -> list[str]:
    """The query's content words for BM25 and coverage, less the words of its relative date expressions
    ("year" in "later this year" names no date; its resolved span boosts instead:
    model.date_queries.query_dates; of a question about a day's agenda only its absolute date words,
    :func:`by_date_alone`) and less the names of the tenant's speakers: "What did Melanie paint?" is about
    Melanie's turns, which the speaker boost finds, while her name as a word matches every turn that
    addresses her ("Thanks, Melanie!") and none of the turns where she says what she painted."""
    dates = query_dates(query, as_of or datetime.now(UTC))
    words = [t for t in query_terms(query) if t not in dates.relative_words]
    if by_date_alone(query, dates):  # a day's agenda ("What's on Wednesday?"): "happening" or "got" find
        return [t for t in words if t in dates.words]  # chatter; "wednesday" finds "Wednesday lunch with Raj"
    spoken = {word for name in spoken_names(query, speakers) for word in query_terms(name)}
    return [t for t in words if t not in spoken]


def by_date_alone(query: str, dates: QueryDates) -> bool:
    """Whether every word of ``query`` is a word of its date expressions (``dates``) or of an agenda
    (:data:`AGENDA_WORDS`): it asks for what falls on that time (graphmem.retrieval.signals.date_cue); not
    "Where was John then?" (a speaker's name counts as a word here)."""
    return dates.span is not None and all(t in AGENDA_WORDS or t in dates.words for t in query_terms(query))


def substring_words(query: str) -> list[str]:
    """The words a substring scan looks for (the last resort when neither index finds anything): the query's
    terms of three characters or more, or the whole query."""
    words = [t.removesuffix("'s") for t in index_tokens(query)]  # "Caroline’s" finds "Caroline's" too
    return [t for t in words if len(t) > 2] or [query.strip().lower()]


OWN_FIELDS = ("content", "speaker", "search_text")
"""The full-text fields of a memory's own words: every field of the index but the tenant token and the asked
key (the questions feedback marked it useful for, ``graphmem.model.keys.asked_key``)."""


def lucene_query(terms: list[str], user_key: str, asked: bool = True) -> str:
    """A Lucene query requiring the tenant token and any of the terms (each escaped), in any field of the
    index or, without ``asked`` (the asked keys off), in the memory's own words only."""
    escaped = " ".join(LUCENE_SPECIAL.sub(r"\\\1", t) for t in terms)
    if asked:
        return f"+user_key:{user_key} +({escaped})"
    return f"+user_key:{user_key} +({' '.join(f'{f}:({escaped})' for f in OWN_FIELDS)})"


def query_names(query: str) -> set[str]:
    """Lower-cased proper names in the query, the opening word included when it is a possessive or a given
    name ("Caroline's hobbies?", "Melanie painted what?"): every question opens with a capital, and an
    opener such as "Remind", "Tell", "Whose", "Please" or "Hey" named someone no memory mentions, which set
    the answer's confidence to 0 (graphmem.retrieval.signals.names_known)."""
    names = {n.lower().removesuffix("'s") for n in named_entities(query)}
    said = query.strip().lstrip("'\"\u2018\u201c").split(" ", 1)[0].strip('?,.!:;"')
    first = said.removesuffix("'s").removesuffix("\u2019s").strip("'")
    named = said != first or is_first_name(first)
    if first[:1].isupper() and first.lower() not in STOP_WORDS | NOT_A_NAME and named:
        names.add(first.lower())
    return names


def spoken_names(query: str, speakers: Collection[str]) -> set[str]:
    """The names in the query that are names of the tenant's speakers (lower-cased)."""
    return query_names(query) & set(speakers)


def vector_query(query: str, speakers: Collection[str]) -> str:
    """The text embedded for the vector search: the query less the names of the tenant's speakers (and
    their possessive). A speaker's name is who a question is about, which the speaker boost scores; in the
    embedding it pulls towards every turn that names or addresses that speaker ("Thanks, Melanie!") rather
    than towards what the question asks. A query that is nothing but such names is embedded as it is."""
    names = spoken_names(query, speakers)
    if not names:
        return query
    pattern = r"\b(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?:'s)?\b"
    stripped = " ".join(re.sub(pattern, " ", query, flags=re.IGNORECASE).split())
    return stripped if query_terms(stripped) else query
