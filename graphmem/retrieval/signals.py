"""Per-memory signals of a recall pool, before the graph: the better of a memory's two keys (its own words
and its context), whether a turn only asks, how well its episode matches, how far it stands out of the pool
and how many of the query's words it covers. Pure (no database)."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from graphmem.model.date_queries import overlaps
from graphmem.model.fact_keys import RELATION_ALIASES
from graphmem.model.planned import SUPPOSING_WORDS, leading
from graphmem.model.scoring import (
    ASKING_FACTOR,
    OTHER_VOICE_FACTOR,
    answer_confidence,
    asks_only,
    linear_fusion,
)
from graphmem.model.timescope import STALE_FACTOR, TimeScope, asks_about_the_past, currency
from graphmem.model.tokens import index_tokens
from graphmem.retrieval.terms import STOP_WORDS, query_names, query_terms, spoken_names

# A statement that says one's own state changed: "I sold the Corolla", "we moved the wedding", "I stopped
# learning Spanish and switched to Italian", "we decided to skip Osaka", "my new manager is Priya", "I don't
# drive any more", "I no longer eat meat". First person, and a change verb as a verb: conversation uses the
# same words otherwise ("it changed my life", "use oil instead of butter", "I won't quit", "any more art?").
CHANGE = re.compile(
    r"\b(?:I|we)(?:'ve|'d| have| had)?(?: just| finally| recently| already| actually| since)? "
    r"(?:switched|changed|moved|sold|replaced|quit|stopped|left|cancell?ed|postponed|rescheduled|skipped|"
    r"gave up|decided (?:not )?to (?:skip|cancel|stop|quit|drop|move|switch|change|sell))\b"
    r"|\b(?:my|our) new \w+ (?:is|are)\b|\bno longer\b|(?:n't|\bnot|\bnever)\b[^.!?]{0,30}\bany ?more\b",
    re.IGNORECASE,
)


DAY_MS = 86_400_000


def event_of(memory: Mapping[str, Any]) -> Any:
    """When a pool row's memory is about (epoch ms, ``[start, end)``): the range its date expressions
    resolved to, else the day it was said (``said``: its occurred_at): an undated statement ("I went to a
    pottery class with Lena") is about the time it was made, so "what did I do last week?" finds it."""
    said = memory.get("said")
    return memory.get("event") or ([said, said + DAY_MS] if isinstance(said, int) else None)


def asking(memory: Mapping[str, Any]) -> float:
    """:data:`ASKING_FACTOR` for a memory that only asks, else 1."""
    return ASKING_FACTOR if asks_only(str(memory.get("content") or "")) else 1.0


def session_match(
    memories: Mapping[str, Any], own: Mapping[str, float], asks: Mapping[str, float]
) -> dict[Any, float]:
    """Each session's best own score over the pool and its neighbourhood, divided by the best of all: how
    well the episode a memory belongs to matches the query (session-level aggregation). The turns of the
    best-matching episode are its context, whether or not their own words match. What an episode states is
    what its statements match: a turn that only asks counts at its ``asks`` factor, as in the score."""
    best: dict[Any, float] = {}
    for mid, memory in memories.items():
        session = memory.get("session_id")
        if session is not None:
            score = own.get(mid, 0.0) * asks.get(mid, 1.0)
            best[session] = max(best.get(session, 0.0), score)
    top = max(best.values(), default=0.0)
    return {s: v / top for s, v in best.items()} if top > 0 else {}


# A match through the context key (previous turn + this one) counts CONTEXT_MARGIN (in cosine) less than
# the same match on the memory's own words: the turn that says a thing outranks the reply after it, while a
# reply that cannot stand alone ("Yes, it was amazing!") is still found through its context.
CONTEXT_MARGIN = 0.05


def via_context(memory: Mapping[str, Any]) -> bool:
    """Whether the memory's best match is its context key (the previous turn with this one)."""
    context = memory.get("context_cosine")
    return context is not None and best_cosine(memory) > 2 * float(memory.get("cosine") or 0.0) - 1


def best_cosine(memory: Mapping[str, Any]) -> float:
    """The better of the memory's own key and its context key (less :data:`CONTEXT_MARGIN`), as a cosine
    in [−1, 1] (Neo4j returns (1 + cos) / 2)."""
    own = 2 * float(memory.get("cosine") or 0.0) - 1
    context = memory.get("context_cosine")
    return own if context is None else max(own, 2 * float(context) - 1 - CONTEXT_MARGIN)


def spread(
    cosine: Mapping[str, float], seeds: Iterable[str], reference: Sequence[float] = (), size: int = 0
) -> Any:
    """standout(mid): the memory's cosine in standard deviations above the pool's mean cosine (``seeds``: the
    pool's ids; a filtered recall's second read adds none: graphmem.retrieval.filtered). A pool of
    fewer than ``size`` is filled up with the best of ``reference`` (the query's cosines with the reference
    sentences, best first; graphmem.retrieval.reference)."""
    pool = [cosine[m] for m in seeds if m in cosine]
    pool += list(reference[: max(0, size - len(pool))])
    if len(pool) < 2:
        return lambda mid: 0.0
    mean, sd = statistics.fmean(pool), statistics.pstdev(pool) or 1e-6
    return lambda mid: (cosine.get(mid, mean) - mean) / sd


def _relation_words() -> dict[str, frozenset[str]]:
    """Each canonical fact relation's name -> its one-word aliases (``occupation`` -> job, profession;
    ``location`` -> city, home, lives, residence, town). A compound alias's words (``first_name``,
    ``current_city``) do not name the relation on their own."""
    words: dict[str, set[str]] = {}
    for alias, canonical in RELATION_ALIASES.items():
        if alias.isalpha() and alias != canonical:
            words.setdefault(canonical, set()).add(alias)
    return {k: frozenset(v) for k, v in words.items()}


RELATION_WORDS = _relation_words()


def coverage(terms: list[str], memory: Mapping[str, Any]) -> float:
    """The share of query content words found in the memory's text, a word matching any text word that
    starts with its first five letters (plurals and verb forms: "live"/"lives", "practice"/"practised").
    A fact relation the text names (a profile fact's line in the search text: "occupation nurse") brings
    the words of its aliases: "What is my job?" asks by a word the fact key's namespace maps to occupation."""
    if not terms:
        return 0.0
    fields = (
        "speaker",
        "content",
        "text",
        "search_text",
    )  # pool rows carry text (search_text), fetched rows search_text
    text = " ".join(str(memory.get(f) or "") for f in fields)
    words = set(index_tokens(text))  # as the index cuts it (search_text holds a compound term's words)
    for relation in words & RELATION_WORDS.keys():
        words |= RELATION_WORDS[relation]
    return sum(any(w.startswith(t[:5]) for w in words) for t in terms) / len(terms)


def names_known(query: str, frequencies: Iterable[Sequence[Any]] | None) -> float:
    """0 when the query names someone or something and the readable memories mention none of its names, else
    1: no memory of this store can say what "Caroline" did if it never names her. A name is unmentioned when
    the full-text index counts it in no memory (``frequencies``: recall_pool's [term, document frequency] of
    the query's terms; the tenant's speakers are left out of them, so a question naming a speaker is always
    about this store, as is one naming anything counted, or anything not counted at all)."""
    names = query_names(query)
    df: dict[str, int] = {}
    for term, count in frequencies or ():
        if isinstance(count, int):
            base = str(term).removesuffix("'s")
            df[base] = max(count, df.get(base, 0))

    def unmentioned(name: str) -> bool:
        counted = [df.get(t) for t in (f.removesuffix("'s") for f in query_terms(name))]
        return bool(counted) and all(c == 0 for c in counted)

    return 0.0 if names and all(unmentioned(n) for n in names) else 1.0


def other_voice(query: str, speakers: Collection[str]) -> Callable[[Mapping[str, Any]], float]:
    """voice(memory): :data:`OTHER_VOICE_FACTOR` for a turn of one of the tenant's ``speakers`` (lower-cased)
    when the query asks about exactly one other of them, else 1."""
    named = spoken_names(query, speakers)
    if len(named) != 1:
        return lambda memory: 1.0

    def voice(memory: Mapping[str, Any]) -> float:
        speaker = str(memory.get("speaker") or "").lower()
        return OTHER_VOICE_FACTOR if speaker in speakers and speaker not in named else 1.0

    return voice


def answer_judge(
    query: str,
    row: Mapping[str, Any],
    terms: list[str],
    standout: Callable[[str], float],
    span: tuple[int, int] | None = None,
) -> Callable[[str, Mapping[str, Any]], tuple[float, dict[str, float]]]:
    """judge(id, memory) -> (confidence, its components): graphmem.model.scoring.answer_confidence of the
    memory's standout and coverage of ``terms``, times :func:`names_known` (0 for a query about someone the
    store never names), :func:`other_voice` (half for another speaker's turn than the one asked about) and
    :func:`asking` (half for a turn that only asks: it states no answer).
    ``span``: the time the query's relative date expression resolves to (its words are not among ``terms``,
    as they are not among BM25's); the expression counts as one more term, covered by a memory whose event
    overlaps it, as the date boost rewards it in ranking ("later this year" by "a trip in October")."""
    known = names_known(query, row.get("frequencies"))
    voice = other_voice(query, row.get("speakers") or ())

    def covered(memory: Mapping[str, Any]) -> float:
        if span is None:
            return coverage(terms, memory)
        dated = 1.0 if overlaps(event_of(memory), span) else 0.0
        return (coverage(terms, memory) * len(terms) + dated) / (len(terms) + 1)

    def judge(mid: str, memory: Mapping[str, Any]) -> tuple[float, dict[str, float]]:
        parts = {"standout": standout(mid), "coverage": covered(memory)}
        parts |= {"names_known": known, "voice": voice(memory), "asking": asking(memory)}
        factor = known * parts["voice"] * parts["asking"]
        return factor * answer_confidence(parts["standout"], parts["coverage"]), parts

    return judge


DETAILS_MAX = 3
"""Most sources a summary hit shows: a question rests on one to three turns (96 % of LoCoMo's questions, and
a multi-hop one mostly on two or three); more would fill the agent's context with a summary's other turns."""


def summary_details(
    row: Mapping[str, Any],
    cosine: Mapping[str, float],
    bm25: Mapping[str, float],
    vector_weight: float,
    k: int,
) -> dict[str, tuple[str, ...]]:
    """Each summary's sources the query found it by: the one that gave the summary its score (``via``), and
    every other replaced source that a channel ranks, on its own, among its ``k`` best candidates and at or
    above its median one (recall_pool's ``vias``: cosine, or the index's full-text score, compared with the
    pool's seeds and the other sources in that channel; the median keeps a small tenant, where every memory
    is among the k best, from showing its weak matches); the channel with the larger share of the summary's
    fused score first (each channel's share as :func:`linear_fusion` weighs it), best first within a
    channel; at most :data:`DETAILS_MAX`."""
    by_meaning, by_words = linear_fusion(cosine, {}, vector_weight), linear_fusion({}, bm25, vector_weight)
    cut = _channel_cuts(row["seeds"], k)
    out: dict[str, tuple[str, ...]] = {}
    for seed in row["seeds"]:
        channels = {f["source"]: f for f in seed["found"] if f.get("via") or f.get("vias")}
        if not channels:
            continue
        mid = seed["id"]
        share = {"vector": by_meaning.get(mid, 0.0), "fulltext": by_words.get(mid, 0.0)}
        picked: list[str] = []
        for source in sorted(channels, key=lambda c: -share.get(c, 0.0)):
            f = channels[source]
            found = sorted(f.get("vias") or (), key=lambda v: -float(v[1]))
            picked += [f["via"]] if f.get("via") else []
            picked += [str(v[0]) for v in found if float(v[1]) >= cut.get(source, math.inf)]
        out[mid] = tuple(dict.fromkeys(picked))[:DETAILS_MAX]
    return out


def _channel_cuts(seeds: Iterable[Mapping[str, Any]], k: int) -> dict[str, float]:
    """Per channel, the higher of the ``k``-th best and the median score among the pool's seeds and the
    replaced sources it found: a source at or above it would have been one of the channel's ``k`` best
    matches on its own, and a better one than the channel's typical candidate."""
    scores: dict[str, list[float]] = {}
    for seed in seeds:
        for f in seed["found"]:
            own = [float(v[1]) for v in f.get("vias") or ()]
            if not f.get("via"):  # the seed's own key scored it (a summary's best source is among its vias)
                own.append(float(f["score"]))
            scores.setdefault(f["source"], []).extend(own)
    return {
        source: max(sorted(v, reverse=True)[min(k, len(v)) - 1], statistics.median(v))
        for source, v in scores.items()
        if v
    }


def currencies(
    memories: Mapping[str, Mapping[str, Any]],
    links: Sequence[Sequence[Any]],
    own: Mapping[str, float],
    query: str,
    k: int,
    scope: TimeScope,
    now: datetime,
    keys: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Each memory's currency factor (graphmem.model.timescope.currency: :data:`STALE_FACTOR` for a
    statement outdated by a later fact, unless what the question asks of it still holds; ``keys``: the
    question's cosine with fact keys' words), also :data:`STALE_FACTOR` for one :func:`changed_later` finds,
    and a turn matched through its context key no more current than the previous turn it borrows from, unless
    it is what outdated that turn ("I live in London." / "I moved to Glasgow.": the second is the current
    statement, matched through the first's words)."""
    current = {mid: currency(m, query, scope, now, keys) for mid, m in memories.items()}
    changers = changed_later(memories, own, query, k, links)
    for mid in changers:
        current[mid] = min(current[mid], STALE_FACTOR)
    before = {link[1]: link[0] for link in links if link[2] == "FOLLOWS"}
    for mid, memory in memories.items():
        prev = before.get(mid)
        if prev in current and via_context(memory) and not _outdated_by(prev, memories, mid, changers):
            current[mid] = min(current[mid], current[prev])
    return current


def _outdated_by(
    old: str, memories: Mapping[str, Mapping[str, Any]], mid: str, changers: Mapping[str, set[str]]
) -> bool:
    """Whether memory ``mid`` is what outdated memory ``old``: :func:`changed_later` says so, or a fact
    ``mid`` stated marked it (``old``'s ``outdated_by``: the memories that SUPERSEDE it; "I'm moving to
    Glasgow next month" after "I live in London" too, whose mark starts at the plan's date)."""
    by = (memories.get(old) or {}).get("outdated_by")
    return mid in changers.get(old, ()) or (isinstance(by, list) and mid in by)


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
    question well enough to be shown. On the LoCoMo development split it marks nothing (762 questions)."""
    if asks_about_the_past(query):
        return {}
    top = sorted(own, key=lambda mid: -own[mid])[:k]
    said: dict[str, int] = {  # epoch ms; a memory without it is not compared
        mid: t for mid in top if mid in memories and isinstance(t := memories[mid].get("said"), int)
    }
    speakers = {str(m.get("speaker") or "").lower() for m in memories.values()}  # who, not what
    words = {mid: _content_words(str(memories[mid].get("content") or "")) - speakers for mid in said}
    related = {frozenset(link[:2]) for link in links if link[2] == "RELATED_TO"}
    changed: dict[str, set[str]] = {}
    for new in words:
        content = str(memories[new].get("content") or "")
        if asks_only(content) or all(_supposed(content, m.span()) for m in CHANGE.finditer(content)):
            continue  # no change stated: none said, or only supposed ("If I moved to Barcelona, would ...")
        for old in words:
            if (
                old != new
                and said[old] < said[new]
                and words[old] & words[new]
                and memories[old].get("speaker") == memories[new].get("speaker")  # one's own state
                and frozenset((old, new)) in related
            ):
                changed.setdefault(old, set()).add(new)
    return changed


_SUPPOSING = leading(SUPPOSING_WORDS)
"""What supposes or asks a change (``CHANGE``'s verbs are past forms: "If I moved to Bergen, ...", "Should
we have switched ..."), right before its subject. Not ``graphmem.model.planned.supposed``'s time words
(when, once, before, after, until): "When I sold the Corolla last spring, I bought a Tesla" states the
sale."""


def _supposed(text: str, span: tuple[int, int]) -> bool:
    """Whether the change at ``span`` is only supposed or asked (:data:`_SUPPOSING`)."""
    return _SUPPOSING.search(text, max(0, span[0] - 40), span[0]) is not None


def _content_words(text: str) -> set[str]:
    """Lower-case words of three letters or more that are not function words."""
    found = {term.split("'")[0] for term in query_terms(text)}  # "i'm" -> "i"
    return {w for w in found if len(w) >= 3 and w not in STOP_WORDS}
