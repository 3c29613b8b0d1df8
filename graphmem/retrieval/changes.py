"""What later statements changed (pure): a statement outdated by a later one scores down for a question about
the present, and the later one answers what the question matched in it.

Two sources say a statement was outdated: a fact it stated was superseded by a later memory's fact of the same
key (``outdated_by``: the memories that SUPERSEDE it, graphmem.model.timescope), and a later statement of the
same speaker that states a change (:data:`CHANGE`) of something the earlier one named, which formation linked
to it (:func:`changed_later`; no fact rule covers "I sold the Corolla" or "we migrated the database from MySQL
to Postgres"). :func:`currencies` turns both into each memory's currency factor, and :func:`inherit` gives the
later statement the earlier one's score where that is higher: the change statement seldom repeats the words
the question shares with the statement it changed ("Which HTTP client do we use?" / "We use requests as our
HTTP client" / "We switched from requests to httpx")."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from graphmem.model.fact_keys import who_is_named
from graphmem.model.scoring import asks_only
from graphmem.model.timescope import (
    CURRENT_FACTOR,
    STALE_FACTOR,
    TimeScope,
    asks_about_the_past,
    currency,
    introduces,
)
from graphmem.retrieval.bm25 import stem
from graphmem.retrieval.change_patterns import CHANGE, changed_words
from graphmem.retrieval.restated import (
    asked_of,
    content_words,
    earlier,
    names_the_head,
    people_named,
    restated_later,
)
from graphmem.retrieval.signals import via_context

__all__ = ["CHANGE", "changed_later", "currencies", "inherit", "introductions"]


def currencies(
    memories: Mapping[str, Mapping[str, Any]],
    links: Sequence[Sequence[Any]],
    own: Mapping[str, float],
    query: str,
    k: int,
    scope: TimeScope,
    now: datetime,
    keys: Mapping[str, float] | None = None,
) -> tuple[dict[str, float], dict[str, set[str]]]:
    """Each memory's currency factor (graphmem.model.timescope.currency: :data:`STALE_FACTOR` for a statement
    outdated by a later fact, unless what the question asks of it still holds; ``keys``: the question's cosine
    with fact keys' words), also :data:`STALE_FACTOR` for one a change statement :func:`changed_later` finds
    claims (:func:`_claimed`), and a turn matched through its context key no more current than the previous
    turn it borrows from, unless it is what outdated that turn ("I live in London." / "I moved to Glasgow.":
    the second is the current statement, matched through the first's words). Also, per outdated memory, the
    memories of the pool that outdated it (a fact they stated SUPERSEDES it, or :func:`changed_later`):
    :func:`inherit` reads them."""
    current = {mid: currency(m, query, scope, now, keys) for mid, m in memories.items()}
    words = _candidates(memories, own, query, k)
    changers = _claimed(_changes(memories, words, links, query), links, words, query)
    restated = restated_later(memories, words, query)
    for mid in {*changers, *restated}:
        current[mid] = min(current[mid], STALE_FACTOR)
    for mid in introductions(memories, query):  # "Who is Sal?": where the user first named him
        current[mid] = max(current[mid], CURRENT_FACTOR)
    before = {link[1]: link[0] for link in links if link[2] == "FOLLOWS"}
    for mid, memory in memories.items():
        prev = before.get(mid)
        if (
            prev in current
            and via_context(memory)
            and not _outdated_by(prev, memories, mid, changers, restated)
        ):
            current[mid] = min(current[mid], current[prev])
    return current, _superseders(memories, current, changers)


def _claimed(
    changers: Mapping[str, set[str]],
    links: Sequence[Sequence[Any]],
    words: Mapping[str, frozenset[str] | set[str]],
    query: str,
) -> dict[str, set[str]]:
    """Of :func:`changed_later`'s pairs, the earlier statements each change statement outdates, and passes its
    score to (:func:`inherit`). A change statement shares a word with the earlier ones it is compared with,
    which can be another thing's ("requests" the library, and "requests per minute" of a rate limit: "We
    raised the API rate limit to 500 requests per minute" is closer to "The API rate limit is 100 requests
    per minute" than to "We use requests as our HTTP client" or to "We switched from requests to httpx"), so
    each claims the earlier statement it is closest to (the heaviest RELATED_TO edge between them, as the
    pool reads its weight now); along a chain of changes each claims the one before it. It also claims
    every other earlier statement of the thing asked (graphmem.retrieval.restated.names_the_head) whose
    closest later change it is, unless that statement states a change itself: "new lead is called hana"
    outdates both "my team lead kieran made us redo the board" and "kieran quit?? we get a new lead next
    month" for "who's my team lead now?", where only the closer one was outdated and the first still ranked
    first."""
    weight = {
        frozenset(link[:2]): _number(link[3]) for link in links if link[2] == "RELATED_TO" and len(link) > 3
    }

    def closest(one: str, others: set[str]) -> str:
        return max(sorted(others), key=lambda o: weight.get(frozenset((one, o)), 0.0))  # ties: by id

    earlier_ones: dict[str, set[str]] = {}
    for old, later in changers.items():
        for new in later:
            earlier_ones.setdefault(new, set()).add(old)
    asked = asked_of(query)
    claimed: dict[str, set[str]] = {}
    for new, olds in earlier_ones.items():
        chosen = {closest(new, olds)} | {
            old
            for old in olds
            if old not in earlier_ones  # no change statement itself
            and closest(old, changers[old]) == new
            and names_the_head(asked, words.get(old, frozenset()), words.get(new, frozenset()))
        }
        for old in chosen:
            claimed.setdefault(old, set()).add(new)
    return claimed


def _superseders(
    memories: Mapping[str, Mapping[str, Any]],
    current: Mapping[str, float],
    changers: Mapping[str, set[str]],
) -> dict[str, set[str]]:
    """Per memory outdated for the question (``current`` below 1), the pool's memories that outdated it:
    those whose facts SUPERSEDE it (``outdated_by``: by fact key) and the change statements that claim it
    (:func:`_claimed`)."""
    by: dict[str, set[str]] = {}
    for mid, memory in memories.items():
        if current[mid] >= 1.0:
            continue
        later = memory.get("outdated_by")
        found = {x for x in later if isinstance(x, str)} if isinstance(later, list) else set()
        if found | changers.get(mid, set()):
            by[mid] = found | changers.get(mid, set())
    return by


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def inherit(own: Mapping[str, float], by: Mapping[str, set[str]]) -> dict[str, float]:
    """The own scores (before currency) with each statement that outdated another raised to the other's
    score: what a question matched in the stale statement ("We use requests as our HTTP client"), the
    statement that changed it answers now ("We switched from requests to httpx"), though it seldom repeats
    the words the question shares with the first. Through a chain of changes, the latest gets the best of
    the chain. Only where the earlier one is outdated for this question (``by``: :func:`currencies`): a
    question about the past leaves every score as it was."""
    raised = dict(own)
    for _ in range(len(by)):  # a chain of n changes needs at most n passes; most pools have none
        moved = False
        for old, later in by.items():
            for new in later:
                if old in raised and new in raised and raised[new] < raised[old]:
                    raised[new], moved = raised[old], True
        if not moved:
            break
    return raised


def _outdated_by(
    old: str,
    memories: Mapping[str, Mapping[str, Any]],
    mid: str,
    changers: Mapping[str, set[str]],
    restated: Mapping[str, set[str]],
) -> bool:
    """Whether memory ``mid`` is what outdated memory ``old``: :func:`changed_later` or
    graphmem.retrieval.restated.restated_later says so, or a fact
    ``mid`` stated marked it (``old``'s ``outdated_by``: the memories that SUPERSEDE it; "I'm moving to
    Glasgow next month" after "I live in London" too, whose mark starts at the plan's date)."""
    by = (memories.get(old) or {}).get("outdated_by")
    later = changers.get(old, set()) | restated.get(old, set())
    return mid in later or (isinstance(by, list) and mid in by)


def changed_later(
    memories: Mapping[str, Mapping[str, Any]],
    own: Mapping[str, float],
    query: str,
    k: int,
    links: Sequence[Sequence[Any]],
) -> dict[str, set[str]]:
    """The best ``k`` candidates (by ``own``) that a later one of them says has changed (each with those later
    ones), for a question about
    the present: the later one, said by the same speaker, states a change (:data:`CHANGE`; not a question),
    names something the earlier one said (a content word both hold, speakers' names aside: "I drive a Toyota
    Corolla" / "I sold the Corolla and bought a Tesla"), and formation linked the two as related (RELATED_TO,
    ``links``: recall_pool's). No fact rule covers such statements, so without this the earlier one, often
    the closer match to the question's words, ranked first. Only among the best k: both must answer the
    question well enough to be shown. On the LoCoMo development split no change it finds is claimed
    (:func:`_claimed`) in any of 997 recalls (round 61, the value-change wording included)."""
    return _changes(memories, _candidates(memories, own, query, k), links, query)


def _candidates(
    memories: Mapping[str, Mapping[str, Any]], own: Mapping[str, float], query: str, k: int
) -> dict[str, frozenset[str]]:
    """The best ``k`` statements (by ``own``) that carry the time they were said (``said``), each with its
    content words (graphmem.retrieval.restated.content_words) less the speakers' names (who, not what); none
    for a question about the past, or who someone is ("Who's Bernadette?": who she is, whoever holds her
    role now: "my new charge nurse is Lorraine" changes the role, not who Bernadette is)."""
    if asks_about_the_past(query) or who_is_named(query):
        return {}
    top = sorted(own, key=lambda mid: -own[mid])[:k]
    speakers = {stem(str(m.get("speaker") or "").lower()) for m in memories.values()}
    return {
        mid: content_words(str(memories[mid].get("content") or "")) - speakers
        for mid in top
        if mid in memories and isinstance(memories[mid].get("said"), int)  # epoch ms; else not compared
    }


def _changes(
    memories: Mapping[str, Mapping[str, Any]],
    words: Mapping[str, frozenset[str]],
    links: Sequence[Sequence[Any]],
    query: str,
) -> dict[str, set[str]]:
    """:func:`changed_later` over :func:`_candidates`' ``words``. Linked by formation, or sharing a word of
    the thing the question asks about beside the change ("hired a new fella, Wade" and "my hired hand is
    Jesse" for "who is my hired hand now?": formation did not link them), not a name the earlier one writes
    capitalised ("Darlene's surgery got bumped to the 19th" changes no "wife is Darlene" for "what does
    darlene do": she is whose the surgery is, not what changed)."""
    related = {frozenset(link[:2]) for link in links if link[2] == "RELATED_TO"}
    thing = asked_of(query).thing
    changed: dict[str, set[str]] = {}
    for new in words:
        content = str(memories[new].get("content") or "")
        changing = frozenset() if asks_only(content) else changed_words(content)
        if not changing:
            continue  # no change stated: none said, or only supposed ("If I moved to Barcelona, would ...")
        for old in earlier(memories, words, new):  # one's own state, said before
            shared = words[old] & changing
            if shared and (frozenset((old, new)) in related or shared & thing - _names(memories[old])):
                changed.setdefault(old, set()).add(new)
    return changed


def _names(memory: Mapping[str, Any]) -> frozenset[str]:
    """The people ``memory`` names (graphmem.retrieval.restated.people_named: cached per content)."""
    return frozenset(name for name, _ in people_named(str(memory.get("content") or "")))


def introductions(memories: Mapping[str, Mapping[str, Any]], query: str) -> set[str]:
    """For a question asking who someone is ("Who is Sal?"), the pool's statement that says so where no
    relation fact of theirs does (graphmem.model.timescope.introduces finds none): the first that names them
    in an introducing shape (:data:`_BEFORE`, :data:`_AFTER`: "a guy named Sal", "Sal is the plumber my
    landlord uses", "physio is Karina at Move Well"; not in a question), else the first that names them at
    all, by when it was said. A person is introduced when first mentioned, and later mentions take the name
    as known ("Sal replaced the water heater"), as words for new and given information go in any discourse.
    The name as the question writes it: capitalised there, capitalised in the statement ("Who is Will?" is
    not "I will pick up the kids"); a whole name, its words together ("Tom Becker")."""
    asked = who_is_named(query)
    if not asked or any(introduces(m, query) for m in memories.values()):
        return set()
    found: set[str] = set()
    for name in asked:
        said_as = re.search(rf"(?<![\w'’-]){re.escape(name)}(?![\w-])", query, re.IGNORECASE)
        cased = said_as is not None and said_as.group()[:1].isupper()
        named = re.compile(
            rf"(?<![\w'’-]){re.escape(said_as.group() if said_as else name)}(?![\w-](?!s\b))",
            0 if cased else re.IGNORECASE,
        )
        firsts: list[tuple[bool, int, str]] = []
        for mid, memory in memories.items():
            said, content = memory.get("said"), str(memory.get("content") or "")
            if asks_only(content):  # "What time is Sal coming?" introduces nobody
                continue
            if isinstance(said, int) and (m := named.search(content)) is not None:
                firsts.append((not _introducing(content, m.span()), said, mid))
        if firsts:
            found.add(min(firsts)[2])
    return found


# the shapes a person is introduced in, around the name: "a guy named Sal", "Sal is the plumber", "Sal, my
# plumber", "Sal (the plumber)", "physio is Karina", "my sister Ana", "cofounder: Lena Park"
_NOT_A_ROLE = r"(?!(?:with|and|to|for|at|from|of|in|on|by|or)\b)"  # "the game with Sal" is no role
_BEFORE = re.compile(
    rf"(?:\b(?:named|called)|\b(?<!\?)(?:is|'s)|\b(?:my|our|a|an|his|her|their|the) {_NOT_A_ROLE}[\w-]+"
    rf"(?: {_NOT_A_ROLE}[\w-]+)?,?|:) $",
    re.IGNORECASE,
)
_AFTER = re.compile(
    r"^(?:,? \(?(?:my|our|the|a|an|his|her|their)\b| (?:is|'s) "
    r"(?:my|our|the|a|an|his|her|their)\b|['’]s (?:my|our|the|a|an)\b)",
    re.IGNORECASE,
)


def _introducing(text: str, span: tuple[int, int]) -> bool:
    """Whether the name at ``span`` stands in an introducing shape (:data:`_BEFORE`, :data:`_AFTER`)."""
    before, after = text[max(0, span[0] - 30) : span[0]], text[span[1] : span[1] + 12]
    return _BEFORE.search(before) is not None or _AFTER.search(after) is not None
