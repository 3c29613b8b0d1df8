"""Per-memory signals of a recall pool, before the graph: the better of a memory's two keys (its own words
and its context), whether a turn only asks, how well its episode matches, how far it stands out of the pool
and how many of the query's words it covers. Pure (no database)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from graphmem.model.date_queries import QueryDates, overlaps
from graphmem.model.fact_keys import PEOPLE_ROLES, RELATION_ALIASES
from graphmem.model.scoring import (
    ASKING_FACTOR,
    OTHER_VOICE_FACTOR,
    answer_confidence,
    asks_only,
    linear_fusion,
)
from graphmem.model.timescope import asks_about_the_past
from graphmem.model.tokens import index_tokens
from graphmem.retrieval.terms import by_date_alone, query_names, query_terms, spoken_names

DAY_MS = 86_400_000


def event_of(memory: Mapping[str, Any]) -> Any:
    """When a pool row's memory is about (epoch ms, ``[start, end)``): the range its date expressions
    resolved to, else the day it was said (``said``: its occurred_at): an undated statement ("I went to a
    pottery class with Lena") is about the time it was made, so "what did I do last week?" finds it."""
    said = memory.get("said")
    return memory.get("event") or ([said, said + DAY_MS] if isinstance(said, int) else None)


AGENDA_BOOST = 1.0
"""The date cue of a memory a question about a day's agenda asks for (:func:`date_cue`): fused relevance
lies in [0, 1], so a memory of that day ranks above the others and its own relevance orders it among them."""


def agenda(query: str, dates: QueryDates, read: datetime) -> str | None:
    """Whether ``query`` asks by its date alone (graphmem.retrieval.terms.by_date_alone), and which way:
    "past" for a time over at ``read`` ("What did I do yesterday?", "And last Friday?") or begun and asked
    of in the past tense ("What did I do today?"), else "ahead" ("What's on tomorrow?", "What did I plan for
    Friday?"); None for a question with a word of its own."""
    if dates.span is None or not by_date_alone(query, dates):
        return None
    start, end = dates.span
    return "past" if end <= read or (start <= read and asks_about_the_past(query)) else "ahead"


def date_cue(
    memory: Mapping[str, Any], span: tuple[int, int] | None, boost: float, asked_by: str | None
) -> float:
    """What the question's date adds to a memory's relevance: ``boost`` (the preset's ``date_boost``) when
    the memory is about a time that overlaps the question's span (:func:`event_of`); :data:`AGENDA_BOOST`
    when the question asks by its date alone (``asked_by``, :func:`agenda`: "What do I have tomorrow?",
    "What did I do yesterday?") and the memory's own dates name that time (:func:`_of_the_day`), or, for a
    question about the past, it names none and was said then ("went to a pottery class" said yesterday; a
    remark said this morning is no plan for today)."""
    if span is None or not overlaps(event_of(memory), span):
        return 0.0
    event = memory.get("event")
    said_then = asked_by == "past" and event is None  # (event_of is the day it was said)
    return AGENDA_BOOST if asked_by and (_of_the_day(event, span) or said_then) else boost


def _of_the_day(event: Any, span: tuple[int, int]) -> bool:
    """Whether a memory's own dates name the question's time: they overlap it and span no more than it
    ("Dentist Thursday at 3" for "What do I have on Thursday?"; not "the weather this week looks grim", nor
    "Biscuit is 11 this year")."""
    if not isinstance(event, list) or len(event) != 2 or not all(type(t) is int for t in event):
        return False
    return overlaps(event, span) and event[1] - event[0] <= span[1] - span[0]


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
    pairs = [*RELATION_ALIASES.items(), *((w, r) for r, ws in PEOPLE_ROLES.items() for w in ws)]
    for alias, canonical in pairs:
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
    return sum(_covered(t, words) for t in terms) / len(terms)


def _covered(term: str, words: set[str]) -> bool:
    """A word of the memory starts with the term's first five letters; a term with a digit or a joint
    (``10.0.3.17``, ``parse_config``) only as itself ("parse_args" does not cover "parse_config")."""
    if any(c.isdigit() or c in "_.:" for c in term):
        return term in words
    return any(w.startswith(term[:5]) for w in words)


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
    named: list[str] | None = None,
) -> Callable[[str, Mapping[str, Any]], tuple[float, dict[str, float]]]:
    """judge(id, memory) -> (confidence, its components): graphmem.model.scoring.answer_confidence of the
    memory's standout and coverage of ``terms``, times :func:`names_known` (0 for a query about someone the
    store never names), :func:`other_voice` (half for another speaker's turn than the one asked about) and
    :func:`asking` (half for a turn that only asks: it states no answer).
    ``span``: the time the query's relative date expression resolves to (its words are not among ``terms``,
    as they are not among BM25's); the expression counts as one more term, covered by a memory whose event
    overlaps it, as the date boost rewards it in ranking ("later this year" by "a trip in October").
    ``named``: the terms of the question with the people it names by relation named instead ("Where does Ana
    live?" for "Where does my sister live?", graphmem.model.relations): a memory covers the better of
    the two."""
    known = names_known(query, row.get("frequencies"))
    voice = other_voice(query, row.get("speakers") or ())

    def covered(memory: Mapping[str, Any]) -> float:
        share = max(coverage(terms, memory), coverage(named, memory) if named else 0.0)
        if span is None:
            return share
        dated = 1.0 if overlaps(event_of(memory), span) else 0.0
        return (share * len(terms) + dated) / (len(terms) + 1)

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
