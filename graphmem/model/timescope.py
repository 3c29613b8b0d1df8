"""Time in recall (pure): the two times a read can be asked at, and the rule that prefers current
statements for present-tense questions.

- ``as_of`` is **valid time**: what had happened by then. A memory happened at its ``occurred_at`` (the
  message timestamp; ``created_at`` for memories stored before the field existed).
- ``known_at`` is **transaction time**: what the engine had recorded by then (``recorded_at``).
- Engine events on a memory (forgotten, expired by an update, merged into a duplicate) are events in both
  times; a memory counts as alive at the earlier of the two (``alive_at``): ``as_of=T`` alone shows a memory
  forgotten after T, as it was at T; ``known_at=K`` hides one forgotten before K.

A memory whose stated fact was later superseded or ended (``graphmem.model.facts``) carries
``outdated_from`` (valid time the statement stopped holding) and ``outdated_at`` (when the engine learnt
it), and ``reinstated_at`` when that was withdrawn (a plan called off: the value it would have replaced holds
again). :func:`currency` scores it down for a question about the present, at the read's times.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from graphmem.model.date_patterns import IRREGULAR_PAST, NOT_ED
from graphmem.model.date_queries import query_dates
from graphmem.model.fact_keys import (
    PEOPLE_ROLES,
    RELATIONS,
    asked_about,
    asks_of,
    is_relation_key,
    who_is_named,
)
from graphmem.model.intent import named_entities

__all__ = [
    "CURRENT_FACTOR",
    "STALE_FACTOR",
    "TimeScope",
    "asks_about_the_future",
    "asks_about_the_past",
    "backs",
    "currency",
    "foretold",
    "introduces",
    "is_outdated",
    "not_yet",
    "outdated_for",
    "planned_only",
    "prefer_current",
    "scheme_keys",
    "still_holds",
]

# A statement no longer current keeps this share of its score for a present-tense question: it ranks
# below a current statement of similar relevance but still surfaces when nothing current matches.
STALE_FACTOR = 0.5
# The statement a current fact of the asked key was read from counts this much more for a present-tense
# question about that key: as far above a statement of similar relevance as an outdated one falls below it
# ("I'm a consultant at Bain" above "on site with our client, Heineken" for "Where do I work now?").
CURRENT_FACTOR = 1 / STALE_FACTOR

_PAST = re.compile(
    r"\bhow['’]d\b(?=[^?.]{0,60}\b(?:go|went|do|turn out)\b)"  # "how'd it go", not "how'd you like"
    r"|\b(?:did|was|were|happened|used to|before|previously|formerly|originally|earlier|back then|"
    r"back when|ago|had|last (?:year|month|week|time|summer|winter|spring|autumn)|in the past|at first|"
    r"former|prior)\b"
    # who did it, in a past form ("who sorted the room for the offsite?", "hey who fixed the boiler?"); not
    # who holds a role now ("who took over from Dr Feldman?", "who replaced kieran?", "who moved in?")
    r"|^\W*(?:[\w']+\W+){0,3}?who (?!took over|replaced|succeeded|moved in|stepped in)"
    rf"{NOT_ED}(?:[a-z]{{2,}}ed|{IRREGULAR_PAST})\b",
    re.IGNORECASE,
)


_FUTURE = re.compile(
    r"\b(?:will|shall|going to|gonna|about to|plans?|planning|planned|next|soon|upcoming|later|future|"
    r"tomorrow|mov(?:e|es|ing)|relocat\w*|start(?:s|ing)?|join(?:s|ing)?)\b|\w'll\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class TimeScope:
    """The times a read is asked at: ``as_of`` (valid time) and ``known_at`` (transaction time); None
    means now (no filter)."""

    as_of: datetime | None = None
    known_at: datetime | None = None

    @property
    def alive_at(self) -> datetime | None:
        """When engine events (forgetting, expiry, merges) are judged: the earlier of the two times."""
        times = [t for t in (self.as_of, self.known_at) if t is not None]
        return min(times) if times else None

    @property
    def now(self) -> bool:
        return self.as_of is None and self.known_at is None

    def params(self) -> dict[str, datetime | None]:
        """The ``$as_of``, ``$known_at`` and ``$alive_at`` parameters of the recall queries."""
        return {"as_of": self.as_of, "known_at": self.known_at, "alive_at": self.alive_at}


# which of the options weighed was chosen: "What name did we pick for the baby?", "Which car did we decide
# on?", "what kind of dog did we end up going with?" ask the choice as it stands, the last one said ("we
# decided on Nora!" after "Kevin likes Hazel, I like Nora"), not the past; "where did we end up eating",
# "what did we decide at the meeting" ask what happened
_CHOICE = re.compile(
    r"\b(?:what|which|who)\b[^?.]{0,40}?\bdid (?:i|we|[\w'-]+ and (?:i|me))"
    r"(?: (?:finally|eventually|ultimately))?(?: end up)?"
    r" (?:pick(?:ing)?|choos(?:e|ing)|decid(?:e|ing) on|settl(?:e|ing) on|go(?:ing)? with|opt(?:ing)? for|"
    r"land(?:ing)? on|vot(?:e|ing) for)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=256)
def asks_about_the_past(query: str) -> bool:
    """Whether a question asks about an earlier state ("where did I live before?") rather than the
    present ("where do I live now?"); questions without a marker are about the present, as is one that
    asks which option was chosen (:data:`_CHOICE`)."""
    choice = _CHOICE.search(query)  # its "did" says no past; a past word beside it does ("… last year?")
    rest = query[: choice.start()] + " " + query[choice.end() :] if choice else query
    return _PAST.search(rest) is not None


def is_outdated(memory: Mapping[str, Any], scope: TimeScope, now: datetime) -> bool:
    """Whether the memory's statement had stopped holding at ``scope.as_of`` (default now), as known at
    ``scope.known_at`` (default now): a mark held in transaction time from ``outdated_at`` until
    ``reinstated_at``; marks withdrawn before the current one are kept in the lists ``withdrawn_from``,
    ``withdrawn_at`` and ``withdrawn_until`` (cypher/fact_write.cypher), which recall reads as one
    value, ``withdrawn`` (the three lists), and only for a ``known_at`` read: at now none of them holds."""
    since, withdrawn = memory.get("outdated_from"), memory.get("withdrawn")
    if since is None and withdrawn is None:  # most memories: never outdated (recall asks for every candidate)
        return False
    as_of, known = scope.as_of or now, scope.known_at or now
    marks = [(since, memory.get("outdated_at"), memory.get("reinstated_at"))]
    lists = withdrawn if isinstance(withdrawn, list) and len(withdrawn) == 3 else [None, None, None]
    marks += zip(*(_times(times) for times in lists), strict=False)
    return any(
        since is not None and learnt is not None and since <= as_of and learnt <= known
        and (withdrawn is None or known < withdrawn)
        for since, learnt, withdrawn in marks
    )  # fmt: skip


def _times(value: Any) -> list[datetime]:
    """A stored list of times; anything else (written by hand) reads as none."""
    ok = isinstance(value, list) and all(isinstance(t, datetime) for t in value)
    return value if ok else []


def currency(
    memory: Mapping[str, Any],
    query: str,
    scope: TimeScope,
    now: datetime,
    keys: Mapping[str, float] | None = None,
) -> float:
    """The factor a hit's score is multiplied by: :data:`STALE_FACTOR` for an outdated statement asked
    about in the present tense, unless what the question is about still holds (:func:`still_holds`), and
    for a statement of a plan only (:func:`not_yet`) unless the question asks about the future;
    :data:`CURRENT_FACTOR` for the statement of what holds now of the key asked about (:func:`backs`) when
    the question asks about neither the past nor the future; else 1.
    ``keys``: the question's cosine with the words of fact keys (graphmem.retrieval.fact_vectors)."""
    if asks_about_the_past(query):
        return STALE_FACTOR if foretold(memory, query, scope, now) else 1.0
    outdated, keys = is_outdated(memory, scope, now), keys or {}
    planned = not outdated and not_yet(memory, keys)
    current = backs(memory, keys, query)
    if not outdated and not planned and not current:
        return 1.0
    if outdated and not still_holds(memory, keys):
        return STALE_FACTOR
    if planned:
        return 1.0 if asks_about_the_future(query) or dated_ahead(query, scope.as_of or now) else STALE_FACTOR
    return CURRENT_FACTOR if current and not asks_about_the_future(query) else 1.0


# a question about a past event that a statement made before it cannot answer asks what happened or how it
# went ("What did we do for Tash's birthday?", "How did the inspection go?"); not when ("When did Leah
# visit?": the plan's date answers it) nor what was planned
_WHEN_OR_PLAN = re.compile(
    r"^\W*when\b|\bwhen (?:did|was|were|is|are|do|does|will|had|has)\b|"
    r"\b(?:what (?:time|day|date)|how long|plan\w*|going to|gonna|supposed to|meant to|intend\w*|"
    r"arrang\w*|book\w*|schedul\w*|expect\w*)\b",
    re.IGNORECASE,
)


# ... how it went, what was done (by whom: "what did Sneha and I do"), got, decided or said there, whether it
# was liked, passed or won, what was wrong, where it ended up, what came of it ("What did the endocrinologist
# say?"; not "What did I say about the party?", "Where was the party?", "Who was hosting?": the plan says it)
_WHAT_HAPPENED = re.compile(
    r"\bhow(?: did| was| were)\b|\bhow['’]d\b(?=[^?.]{0,60}\b(?:go|went|do|turn out)\b)"
    r"|\bwhat happened\b|\bwho won\b"
    r"|\bwhat (?:did|have) (?:(?:i|we)(?: and [\w'-]+)?|(?!you\b)[\w'-]+ and (?:i|me|we)) "
    r"(?:do|get|got|agree|decide|end up|eat|see|buy|win|learn|find out)\b"
    r"|\bwhat was wrong\b|\bwhere did [^?.]{1,40}?\bend up\b"
    r"|\bdid [^?.]{1,40}?(?<!would )(?<!['’]d )(?<!look )(?<!feel )(?<!sound )(?<!seem )"
    r"\b(?:like|love|enjoy|pass|win|get in|get into|make it|get through)\b"
    r"|\bwhat was the (?:score|result|outcome|verdict|grade|mark)\b"
    r"|\bwhat did (?!(?:i|we|you)\b)[^?.]{1,40}?\b(?:say|tell|find|decide|think|recommend|give|suggest)\b"
    r"|\bdid [^?.]{1,40}?\bgo (?:well|ok|okay|alright|smoothly|to plan)\b"
    r"|\b(?:was|were) [^?.]{1,40}?\b(?:fun|good|ok|okay|nice|great|a success|worth it)\b",
    re.IGNORECASE,
)


def foretold(memory: Mapping[str, Any], query: str, scope: TimeScope, now: datetime) -> bool:
    """Whether a statement only foretold the event a question about the past asks after: the dates it names
    (``event``, epoch ms) lay ahead when it was said (``said``: "Leah is visiting next weekend", "the
    health inspection is on Thursday") and had begun by the read's time, and the question asks what
    happened or how it went (:data:`_WHAT_HAPPENED`), not when or what was planned (:data:`_WHEN_OR_PLAN`).
    Said before the event, it cannot tell what happened at it, as an outdated statement cannot tell what
    holds now: a statement made after it ("we did an escape room with Leah") can."""
    event, said = memory.get("event"), memory.get("said")
    if not isinstance(event, list) or len(event) != 2 or not isinstance(said, int):
        return False
    start = event[0]
    read = int((scope.as_of or now).timestamp() * 1000)
    if type(start) is not int or not said < start <= read:  # (a bool is no time)
        return False
    return _asks_what_happened(query)


@lru_cache(maxsize=256)
def _asks_what_happened(query: str) -> bool:
    """:func:`foretold`'s test of the question, read once per question, not once per candidate."""
    return _WHAT_HAPPENED.search(query) is not None and _WHEN_OR_PLAN.search(query) is None


def not_yet(memory: Mapping[str, Any], keys: Mapping[str, float]) -> bool:
    """Whether a statement only says what is planned, of what the question asks: a plan of it has not started
    at the read's time (``ahead``, its keys: "we'll be moving to Oxford on 1 February"), no fact of it holds
    then (``holds``: "I live in Leeds and we're moving to Oxford in February" says where one lives too), and
    the question is nearer to a planned key than to every other relation of the key scheme (``keys``:
    cosines; "What's my cat called?" is not asked of "I start at Monzo on 12 January, Luna is thrilled").
    For such a question the statement is not yet the answer, as an outdated one is no longer it. Without a
    cosine for each key it is left whole."""
    ahead = planned_only(memory)
    return bool(ahead) and _nearest(ahead, set(RELATIONS), keys)


def backs(memory: Mapping[str, Any], keys: Mapping[str, float], query: str) -> bool:
    """Whether a statement is what the current value of the question's key was read from: a fact of it of the
    key scheme's relations (graphmem.model.fact_keys.RELATIONS: the keys that hold one value at a time) holds
    at the read's time (``holds``); the question asks about that relation (``asks_of``: "Where do I live?",
    "Who do I work for?", "How old am I?"; not "What's my dog called?") and about the key's subject if it has
    one (``asked_about``: "Where does Ana live?" for ``Ana/location``, "Where does my sister live?" for
    ``sister/location``; a key of the user's own for a question about no one else); and it is nearer to that
    key than to every other relation (``keys``: cosines, the rule of :func:`not_yet`). "I'm a consultant at
    Bain" backs "Where do I work now?" while Bain is the employer; "My sister Ana lives in Porto" does not
    back "What car do I drive?"; a preference read from a statement backs nothing (one holds many). Without
    a cosine for each key: no."""
    if introduces(memory, query):
        return True
    held = scheme_keys(memory.get("holds"))
    if not held:
        return False
    relations, names = _asked(query)
    held = {k for k in held if _asked_of(k, relations, names)}
    return bool(held) and _nearest(held, set(RELATIONS), keys)


def introduces(memory: Mapping[str, Any], query: str) -> bool:
    """Whether a statement is what a current relation fact of the person a question asks about was read from
    ("My neighbour Phyllis brought over some bread" for "Who is Phyllis?": ``person:Phyllis: neighbour``,
    graphmem.model.relations; "my husband is Theo" for "Who is Theo?": a role, ``partner``, held by the name
    the statement says), rather than the later ones that only name them ("phyllis fell and broke her wrist").
    The question names its person: no cosine is needed to tell what it asks."""
    asked = who_is_named(query)
    if not asked:
        return False
    keys = {k.rpartition("/")[2] for k in stored_keys(memory.get("holds"))}
    people = [
        set(re.findall(r"[^\W\d_]+", k.removeprefix("person:").lower()))
        for k in keys
        if k.startswith("person:")
    ]
    if any(set(name.split()) <= person for name in asked for person in people):  # "Patel" of "Dr. Patel"
        return True
    # a role's holder is its value, not its key ("my husband is Theo": partner): named in the statement
    words = set(re.findall(r"[^\W\d_]+", str(memory.get("content") or "").lower()))
    return not keys.isdisjoint(PEOPLE_ROLES) and any(set(name.split()) <= words for name in asked)


@lru_cache(maxsize=256)
def _asked(query: str) -> tuple[frozenset[str], frozenset[str]]:
    """What a question asks about (``asks_of``) and of whom (``asked_about``): read once per question, not
    once per candidate."""
    names = {n.lower().removesuffix("'s") for n in named_entities(query)}
    return frozenset(asks_of(query)), frozenset(asked_about(query, names))


def _asked_of(key: str, relations: frozenset[str], names: frozenset[str]) -> bool:
    """Whether the question asks about ``key``: its relation, and its subject named in the question (the user,
    no subject, when no one is)."""
    subject, _, relation = key.rpartition("/")
    return relation in relations and (subject.lower() in names if subject else not names)


def _nearest(chosen: set[str], rivals: set[str], keys: Mapping[str, float]) -> bool:
    """Whether the question is at least as near (``keys``: cosines) to one of ``chosen`` as to every key of
    ``rivals``; without a cosine for each: no."""
    every = chosen | rivals
    return every <= keys.keys() and max(keys[k] for k in chosen) >= max(keys[k] for k in every)


def planned_only(memory: Mapping[str, Any]) -> set[str]:
    """The keys of a statement's plans when no fact of it holds (what :func:`not_yet` weighs), else none. Who
    the speaker's people are is no state a plan changes: "We're moving to Oxford in February with my partner
    Sam" only plans (graphmem.model.relations: ``partner``, ``person:<name>``)."""
    ahead = stored_keys(memory.get("ahead"))
    held = {k for k in stored_keys(memory.get("holds")) if not is_relation_key(k)}
    return set() if held else ahead


@lru_cache(maxsize=256)
def dated_ahead(query: str, read: datetime) -> bool:
    """Whether a question names a time that has not begun at ``read`` ("What's on Friday?" asked on a
    Tuesday): it asks about what is planned, whatever its tense (:func:`currency`)."""
    span = query_dates(query, read).span
    return span is not None and span[0] > read


def asks_about_the_future(query: str) -> bool:
    """Whether a question asks about what is planned ("Where will I live?", "When do I start at HSBC?",
    "Where am I moving?"): a future form, or a word of the changes plans are made of."""
    return _FUTURE.search(query) is not None


def still_holds(memory: Mapping[str, Any], keys: Mapping[str, float]) -> bool:
    """Whether an outdated statement still states something current that the question may be about: a fact
    of it holds at the read's time (``holds``, its keys) and every key it is outdated for still holds too (a
    plan changed while the value holds: "I'm based in Hamburg and we're planning to move to Munich", then
    Vienna instead), or the question is as near (``keys``: cosines) to a held key as to every key it is
    outdated for that no longer holds (:func:`outdated_for`; "I live in Kraków and work at Comarch", then the
    home corrected: outdated for "Where do I live now?", current for "Where do I work now?"). Without a fact
    that holds, or a cosine for each key: outdated."""
    held, gone = outdated_for(memory)
    if not held or not stored_keys(memory.get("outdated_keys")):  # nothing of it holds, or no keys listed
        return False
    return not gone or _nearest(held, gone, keys)  # every key it is outdated for still holds, or asked less


def outdated_for(memory: Mapping[str, Any]) -> tuple[set[str], set[str]]:
    """The keys of a statement's facts that hold at the read's time (``holds``) and the keys it is outdated
    for that do not (``outdated_keys`` less those): a key outdated while its value holds (a plan of it
    changed, or a change of it planned for later than the read) outdates nothing yet. ``outdated_keys`` is
    the mark as it stands now, so it can also name a key whose change starts after ``as_of`` or was learnt
    after ``known_at``: "I live in Kraków and work at Comarch", the home corrected, then a new job planned
    for March, lists both keys while the job still holds; the home is what it is outdated for."""
    held, listed = stored_keys(memory.get("holds")), stored_keys(memory.get("outdated_keys"))
    return held, listed - held


def scheme_keys(value: Any) -> set[str]:
    """Of a stored list of keys, those of the key scheme's relations (``location``, ``Sam/employer``)."""
    return {k for k in stored_keys(value) if k.rpartition("/")[2] in RELATIONS}


def stored_keys(value: Any) -> set[str]:
    """A stored list of keys as a set; anything else (written by hand) reads as none."""
    return {k for k in value if isinstance(k, str)} if isinstance(value, list) else set()


def prefer_current(
    own: Mapping[str, float],
    memories: Mapping[str, Mapping[str, Any]],
    query: str,
    scope: TimeScope,
    now: datetime,
) -> dict[str, float]:
    """Each candidate's own relevance times its :func:`currency`, applied before activation spreads and
    the blend ranks, so an outdated statement neither ranks nor lends its neighbours the relevance of a
    current one. ``memories``: candidate id -> its node properties (``outdated_from``, ``outdated_at``)."""
    return {
        mid: score * (currency(memories[mid], query, scope, now) if mid in memories else 1.0)
        for mid, score in own.items()
    }
