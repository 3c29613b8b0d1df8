"""The read path as one function: ``search(...) -> Ranked``. No side effects (recall adds those).

One query (``cypher/recall_pool.cypher``) returns a wide pool (the tenant's best ``pool_k`` by cosine and
by full text) with its one-edge neighbourhood and the rows ranking needs; ranking runs in process: linear
fusion, personalized PageRank over memories *and* entities restarting from the fused scores, memory state,
an optional cross-encoder, a session-diverse cut and a calibrated confidence per hit (docs/recall.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.config import RetrievalPreset
from graphmem.embedding import embed_query_checked
from graphmem.errors import GraphMemError
from graphmem.model import metamemory
from graphmem.model.date_queries import QueryDates, query_dates
from graphmem.model.heuristics import context_boost
from graphmem.model.intent import View
from graphmem.model.recall_filter import RecallFilter
from graphmem.model.relations import Named
from graphmem.model.scoring import diversify, linear_fusion, memory_state
from graphmem.model.timescope import TimeScope
from graphmem.retrieval import bm25, filtered, reference
from graphmem.retrieval.changes import currencies, inherit
from graphmem.retrieval.fact_vectors import key_cosines
from graphmem.retrieval.graph import Paths, pagerank
from graphmem.retrieval.plan import VectorPlan, plan_vector_search
from graphmem.retrieval.profile import tenant_profile
from graphmem.retrieval.ranked import Ranked, RankedHit
from graphmem.retrieval.rerank import rerank
from graphmem.retrieval.signals import (
    agenda,
    answer_judge,
    asking,
    best_cosine,
    date_cue,
    session_match,
    spread,
    summary_details,
)
from graphmem.retrieval.terms import keywords, lucene_query, query_names, substring_words, vector_query
from graphmem.store.queries import variant
from graphmem.store.runtime import Runtime, TenantProfile

logger = logging.getLogger(__name__)

SCORE_TYPES = {"hybrid": "linear", "vector": "cosine", "fulltext": "bm25", "substring": "substring"}


SCORED_ALL_MAX = 2000
"""Tenants up to this size have every memory's cosines returned by the exact scan (3 values each), instead of
the neighbourhood's being computed again in the pool's projection: at LoCoMo size (400-700 memories) that
saves a quarter of the pool query's server time for about 1 ms of decoding; decoding 2,000 rows costs about
what recomputing a neighbourhood's cosines does. A speed setting only: the ranking is the same either way."""


@dataclass(frozen=True)
class SearchRequest:
    query: str
    user_id: str
    user_key: str
    k: int
    preset: RetrievalPreset
    embedding: list[float] | None = None
    as_of: datetime | None = None  # valid time: what had happened by then (docs/temporal.md)
    known_at: datetime | None = None  # transaction time: what the engine had recorded by then
    graph: bool = True
    views: Mapping[View, float] | None = None
    now: datetime | None = None  # the recall's clock, for the metamemory hook (default: the wall clock)
    tenants: tuple[str, ...] = ()  # the tenant keys the caller may read (docs/scopes.md); () = user_id's
    situation: list[float] | None = None  # the vector of the conversation the question comes from
    filters: RecallFilter | None = None  # which memories it may return (graphmem.model.recall_filter)
    # the question as asked and the people it names by relation ("my sister" is Ana; query is its text):
    # confidence judges the question as asked (graphmem.model.relations)
    named: Named | None = None

    @property
    def readable(self) -> list[str]:
        return list(self.tenants) or [self.user_id]


# --- the one read -----------------------------------------------------------------------------------
def embed_queries(rt: Runtime, queries: list[str], tenants: list[str]) -> list[list[float]]:
    """The queries' vectors for the pool, in one model call: each query less the tenant's speakers' names
    (:func:`graphmem.retrieval.terms.vector_query`), with the model's query instruction."""
    speakers = tenant_profile(rt, tenants).speakers
    return embed_query_checked(rt.embedder, [vector_query(q, speakers) for q in queries])


def fetch_pool(rt: Runtime, req: SearchRequest) -> dict[str, Any]:
    """Run ``recall_pool`` once (one round trip; the tenant profile is cached per client). On a failure (an
    index missing or rebuilt) it is planned again on the indexes' state and asked without full text."""
    profile = tenant_profile(rt, req.readable)
    name, params = _pool_query(rt, req, profile)
    asked, known = bm25.counted(params["df_queries"], rt.term_counts)  # common terms' counts are kept
    try:
        row = rt.store.read(name, **(params | {"df_queries": asked}))[0]
        row["frequencies"] = bm25.remember(asked, row["frequencies"], rt.term_counts) + known
    except GraphMemError as exc:
        logger.info("recall pool query failed (%s); retrying on what the indexes' state allows", exc)
        rt.vector_filter.reset()
        name, params = _pool_query(rt, req, profile)
        row = rt.store.read(name, **(params | {"lucene": None, "df_queries": []}))[0]
    row["documents"] = profile.user_count  # the tenants' memory count: BM25's collection size
    row["speakers"] = profile.speakers
    return with_scan_cosines(row)


def _pool_query(rt: Runtime, req: SearchRequest, profile: TenantProfile) -> tuple[str, dict[str, Any]]:
    """The ``recall_pool`` variant and parameters for ``req``, by the vector plan for its tenants."""
    time_scoped = req.as_of is not None or req.known_at is not None
    plan = (
        plan_vector_search(
            profile.user_count,
            profile.total,
            req.preset.pool_k,
            req.preset,
            time_scoped=time_scoped,
            filtered=rt.vector_filter.ready(rt.store),
            filters_time=rt.vector_filter.times(rt.store),
            online=rt.vector_filter.online(rt.store),
            tenants=len(req.readable),
        )
        if req.embedding is not None
        else VectorPlan("none", 0)
    )
    terms = keywords(req.query, req.as_of, profile.speakers)
    params = {
        "tenants": req.readable,
        "embedding": req.embedding,
        "method": plan.method,
        "fetch": plan.fetch,
        "time_filter": plan.method == "filtered" and time_scoped and rt.vector_filter.times(rt.store),
        "lucene": lucene_query(terms, req.user_key, req.preset.asked_keys) if terms else None,
        "df_queries": [[t, lucene_query([t], req.user_key, req.preset.asked_keys)] for t in terms],
        "df_cap": bm25.DF_CAP,
        "pool_k": req.preset.pool_k,
        "scan_k": SCORED_ALL_MAX if profile.user_count <= SCORED_ALL_MAX else req.preset.pool_k,
        "max_fan": req.preset.max_fan if req.graph else 0,
        "max_links": req.preset.max_links,
        "now": req.now,
        "situation": req.situation,
        "filtering": req.filters is not None,
        "with_metadata": req.filters is not None and req.filters.reads_metadata,
        **TimeScope(req.as_of, req.known_at).params(),
    }
    return variant("recall_pool", filtered=plan.method == "filtered"), params


def with_scan_cosines(row: dict[str, Any]) -> dict[str, Any]:
    """The pool's memories with the cosines the exact scan computed (``scores``: [id, own, context]) where it
    scored every readable memory: the neighbourhood's rows come without them (no cosine computed twice)."""
    scores = {s[0]: s for s in row.get("scores") or ()}
    for memory in row["memories"] if scores else ():
        if (found := scores.get(memory["id"])) is not None:
            memory["cosine"], memory["context_cosine"] = found[1], found[2]
    return row


# --- ranking ----------------------------------------------------------------------------------------
def search(rt: Runtime, req: SearchRequest) -> Ranked:
    """The tenant's best ``k`` memories for the query, ranked; reads only. One round trip, unless neither
    index finds anything (then a substring scan is the last resort) or a filter admits fewer than ``k`` of
    the pool (then a filtered read adds what it admits: graphmem.retrieval.filtered)."""
    row = fetch_pool(rt, req)
    row = row if row["seeds"] else substring_pool(rt, req)
    row["reference"] = reference.for_pool(rt.embedder, req.embedding, row["seeds"], req.preset.pool_k)
    row = filtered.widen(rt, req, row) if filtered.short(row, req) else row
    row["key_cosines"] = key_cosines(rt.embedder, req.embedding, row["memories"])
    return rank(row, req, rt)


def substring_pool(rt: Runtime, req: SearchRequest) -> dict[str, Any]:
    """Last-resort pool: case-insensitive substring match of the query's words (no graph)."""
    found = rt.store.read(
        "recall_substring",
        terms=substring_words(req.query),
        tenants=req.readable,
        k=req.preset.pool_k,
        **TimeScope(req.as_of, req.known_at).params(),
    )
    if not found:
        return {"seeds": [], "links": [], "mentions": [], "memories": []}
    rows = rt.store.read(
        "candidate_fetch",
        ids=[r["id"] for r in found],
        tenants=req.readable,
        embedding=None,
        now=req.now,
        with_metadata=req.filters is not None and req.filters.reads_metadata,
    )
    return {
        "seeds": [{"id": r["id"], "found": [{"source": "substring", "score": r["score"]}]} for r in found],
        "links": [],
        "mentions": [],
        "memories": [r["memory"] for r in rows],
    }


@dataclass(frozen=True)
class _Signals:
    """What the pool says about each memory before the graph: cosine, BM25, the fused own score (already
    times its currency) and the currency factor."""

    cosine: dict[str, float]
    bm25: dict[str, float]
    own: dict[str, float]
    current: dict[str, float]


def _by_id(row: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, float]]]:
    """The pool's memories and seeds by id. A memory whose id was removed by hand cannot be returned,
    reinforced or named: it is left out."""
    memories = {m["id"]: m for m in row["memories"] if isinstance(m["id"], str)}
    seeds = {
        s["id"]: {f["source"]: float(f["score"]) for f in s["found"]}
        for s in row["seeds"]
        if isinstance(s["id"], str)
    }
    return memories, seeds


def rank(row: Mapping[str, Any], req: SearchRequest, rt: Runtime | None = None) -> Ranked:
    """Rank a fetched pool (pure apart from the optional cross-encoder)."""
    memories, seeds = _by_id(row)
    pairs = req.named.pairs if req.named else ()
    bm25.rescore(row, memories, seeds, asked=req.preset.asked_keys, alternatives=pairs)
    if not seeds:
        return Ranked([], [], "none", "none", 0, 0)
    sources = {src for found in seeds.values() for src in found}
    level = "hybrid" if len(sources) > 1 else next(iter(sources))
    signals = _signals(row, memories, seeds, req)
    stages = ["pool", "fusion"]
    ppr: dict[str, float] = {}
    paths: Paths = {}
    if req.graph and req.preset.graph and req.preset.graph_weight > 0:
        names = query_names(req.query)
        ppr, paths = pagerank(row, memories, signals.own, req.views, names, req.preset)
        stages.append("pagerank")
    dates = query_dates(req.query, req.as_of or datetime.now(UTC))
    scores, parts, factors = _combine(memories, signals, ppr, req, dates)
    if req.filters is not None:  # activation spread through every memory; only those it admits are returned
        scores = {mid: s for mid, s in scores.items() if req.filters.admits(memories[mid])}
    if req.preset.rerank and rt is not None:
        scores = rerank(req.query, req.preset.rerank_top, memories, scores, parts, factors)
        stages.append("rerank")
    order = diversify(
        [(mid, s, memories[mid].get("session_id")) for mid, s in scores.items()],
        2 * req.k,
        req.preset.session_penalty,
    )
    stages.append("diversify" if req.preset.session_penalty > 0 else "cut")
    judge = _judge(row, req, signals.cosine, seeds, dates)
    ranks = _source_ranks(seeds)
    details = summary_details(row, signals.cosine, signals.bm25, req.preset.vector_weight, req.k)
    hits = []
    for mid in order:
        confidence, judged = judge(mid, memories[mid])
        parts[mid].update(judged)
        path, kinds = paths.get(mid, ((mid,), ()))
        hits.append(
            RankedHit(
                mid,
                memories[mid],
                scores[mid],
                confidence,
                ranks.get(mid, {}),
                path,
                kinds,
                parts[mid],
                details.get(mid, ()),
            )
        )
    graph_size = len(memories) - len(seeds)
    fusion = SCORE_TYPES[level]
    # retrieval-induced forgetting weakens competitors among what the recall could return (graphmem.model.
    # metamemory): a memory a filter left out did not compete
    relevance = signals.own if req.filters is None else {m: v for m, v in signals.own.items() if m in scores}
    return Ranked(hits[: req.k], hits[req.k :], level, fusion, len(seeds), graph_size, stages, relevance)


def _judge(
    row: Mapping[str, Any],
    req: SearchRequest,
    cosine: Mapping[str, float],
    seeds: Mapping[str, Any],
    dates: QueryDates,
) -> Callable[[str, Mapping[str, Any]], tuple[float, dict[str, float]]]:
    """The answer's confidence judge (graphmem.retrieval.signals.answer_judge) of the question as the user
    asked it: a name the engine added ("my boss" is Tom) is no name the user asked about."""
    standout = spread(cosine, row.get("baseline", seeds), row.get("reference", ()), req.preset.pool_k)
    span = dates.millis if dates.relative_words else None  # those words left the keywords: the date stands in
    asked = req.named.asked if req.named else req.query
    words = keywords(asked, req.as_of)  # a speaker's name counts here
    named = keywords(req.named.vector, req.as_of) if req.named and req.named.pairs else None  # or the name
    return answer_judge(asked, row, words, standout, span, named)


def _signals(
    row: Mapping[str, Any],
    memories: Mapping[str, Any],
    seeds: Mapping[str, Mapping[str, float]],
    req: SearchRequest,
) -> _Signals:
    """Linear fusion of cosine and BM25, times each memory's currency: statements superseded by then score
    down for a present-tense question, in what they pass to the graph and in their final score
    (graphmem.model.timescope), or changed by a later statement among the best k
    (graphmem.retrieval.changes.changed_later); a match borrowed through the context key from an outdated
    previous turn is outdated with it; a statement that outdated another takes the other's score if higher
    (graphmem.retrieval.changes.inherit)."""
    cosine = {mid: best_cosine(m) for mid, m in memories.items() if m.get("cosine") is not None}
    bm25 = {
        mid: f.get("fulltext", f.get("substring", 0.0))
        for mid, f in seeds.items()
        if len(f.keys() - {"vector"})
    }
    own = linear_fusion(cosine, bm25, req.preset.vector_weight if cosine else 0.0)
    when, now = TimeScope(req.as_of, req.known_at), datetime.now(UTC)
    current, by = currencies(memories, row["links"], own, req.query, req.k, when, now, row.get("key_cosines"))
    own = {mid: v * current.get(mid, 1.0) for mid, v in inherit(own, by).items()}
    return _Signals(cosine, bm25, own, current)


def _combine(
    memories: Mapping[str, Any],
    signals: _Signals,
    ppr: Mapping[str, float],
    req: SearchRequest,
    dates: QueryDates,
) -> tuple[dict[str, float], dict[str, dict[str, float]], dict[str, float]]:
    """Each memory's score: relevance (own score blended with PageRank, plus the speaker and date boosts and a
    small share of memory state) times its factors (currency, metamemory, asking, context); its stage values
    for the explanation (``relevance`` is the score before the factors); and the factors' product."""
    preset, names = req.preset, query_names(req.query)
    now = req.now or datetime.now(UTC)
    span, by_date = dates.millis, agenda(req.query, dates, req.as_of or now)  # the question's dates
    asks = {mid: asking(memory) for mid, memory in memories.items()}  # once per memory: a regex each
    episode = session_match(memories, signals.own, asks)
    scores: dict[str, float] = {}
    factors: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    for mid, memory in memories.items():
        speaker = str(memory.get("speaker") or "").lower()
        boost = preset.speaker_boost if speaker and speaker in names else 0.0
        dated = date_cue(memory, span, preset.date_boost, by_date)
        own = signals.own.get(mid, 0.0)
        relevance = (1 - preset.graph_weight) * own + preset.graph_weight * ppr.get(mid, 0.0) if ppr else own
        session = preset.session_boost * episode.get(memory.get("session_id"), 0.0)
        state = memory_state(
            _num(memory.get("retention"), 1.0),
            _num(memory.get("strength"), 1.0),
            _num(memory.get("importance"), 0.5),
            _num(memory.get("confidence"), 1.0),
        )
        # metamemory (graphmem.model.metamemory): inhibition and open conflicts lower the score (1 without
        # either); an audit (known_at) takes neither: both may have been recorded after it
        meta = 1.0 if req.known_at is not None else metamemory.ranking_factor(memory, now)
        # context-dependent recall (graphmem.model.heuristics): a memory whose context resembles the
        # conversation the question comes from; 1 without a conversation
        situation = memory.get("situation")
        context = 1.0 if situation is None else context_boost(2 * float(situation) - 1)
        cue = relevance + boost + dated + session
        mixed = cue * (1 - preset.state_weight) + state * preset.state_weight
        factors[mid] = signals.current[mid] * meta * asks[mid] * context
        scores[mid] = factors[mid] * mixed
        parts[mid] = {
            "relevance": mixed,
            "cosine": signals.cosine.get(mid, 0.0),
            "bm25": signals.bm25.get(mid, 0.0),
            "fused": own,
            "pagerank": ppr.get(mid, 0.0),
            "speaker": boost,
            "date": dated,
            "session": session,
            "state": state,
            "currency": signals.current[mid],
            "metamemory": meta,
            "asking": asks[mid],
            "context": context,
        }
    return scores, parts, factors


def _source_ranks(seeds: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for source in ("vector", "fulltext", "substring"):
        ranked = sorted((mid for mid, f in seeds.items() if source in f), key=lambda m: -seeds[m][source])
        for rank, mid in enumerate(ranked, start=1):
            out.setdefault(mid, {})[source] = rank
    return out


def _num(value: Any, default: float) -> float:
    return default if value is None else float(value)
