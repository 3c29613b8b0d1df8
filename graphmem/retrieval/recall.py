"""Recall as a use case: search, then let the result change memory (reinforcement and retrieval-induced
forgetting), and record what was asked and returned."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from graphmem.embedding import embed_query_checked
from graphmem.errors import EmbedderError, MemoryNotFound
from graphmem.formation.writer import user_key
from graphmem.model.intent import named_entities, resolve_views
from graphmem.model.scoring import BLEND_PRESETS, reinforced_strength, suppressed_strength
from graphmem.model.timescope import TimeScope, prefer_current
from graphmem.models import Explanation, Hit
from graphmem.retrieval import search as retrieval
from graphmem.store.driver import Tx
from graphmem.store.records import memory_from_row
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

RECENCY_DAYS = 30.0
FREQUENCY_REF = 10
SCORE_TYPES = {"hybrid": "rrf", "vector": "cosine", "fulltext": "bm25", "substring": "substring"}


@dataclass(frozen=True)
class RecallRequest:
    query: str
    user_id: str
    k: int
    as_of: datetime | None
    hops: int
    views: Mapping[str, float] | None
    reinforce: bool
    known_at: datetime | None = None

    @property
    def when(self) -> TimeScope:
        return TimeScope(self.as_of, self.known_at)


def recall(rt: Runtime, req: RecallRequest, *, now: datetime | None = None) -> list[Hit]:
    """Seeds → own scores → spreading activation → blend → top k; then reinforcement and a record."""
    now = now or datetime.now(UTC)
    preset = rt.settings.preset()
    try:
        embedding: list[float] | None = embed_query_checked(rt.embedder, [req.query])[0]
    except EmbedderError as exc:  # the fallback chain goes on without vectors
        logger.warning("embedding the query failed; recall continues without vector seeds: %s", exc)
        embedding = None
    seeds = retrieval.gather_seeds(
        rt,
        req.query,
        embedding,
        user_id=req.user_id,
        user_key=user_key(req.user_id),
        k=max(preset.seed_k, req.k),
        when=req.when,
    )
    if not seeds.rankings:
        return []
    candidates = _fetch(rt, seeds.ids(), req.user_id, embedding)
    own = seeds.own_scores(_cosines(candidates), preset)
    decision = resolve_views(req.query, req.views)
    activation = retrieval.ActivationSettings.from_preset(preset, req.hops)
    received = retrieval.spread(
        rt,
        current_first(own, candidates, req, now),
        decision.views,
        user_id=req.user_id,
        when=req.when,
        settings=activation,
    )
    reached_only = [mid for mid in received if mid not in candidates]
    if reached_only:
        candidates |= _fetch(rt, reached_only, req.user_id, embedding)
        if preset.fusion == "linear" and embedding is not None:
            own = seeds.own_scores(_cosines(candidates), preset)
    named = {name.lower() for name in named_entities(req.query)} | _leading_name(req.query)
    ranked = retrieval.blend(candidates, own, received, named, BLEND_PRESETS[preset.blend])
    factors = current_first(dict.fromkeys(candidates, 1.0), candidates, req, now)
    ranked = sorted(
        (s if factors[s.id] == 1.0 else replace(s, score=s.score * factors[s.id]) for s in ranked),
        key=lambda s: -s.score,
    )
    top = ranked[: req.k]
    rrf_scores = seeds.rrf(preset.rrf_k)
    full = {
        r["memory"]["id"]: r["memory"]
        for r in rt.store.read("memory_fetch", ids=[s.id for s in top], user_id=req.user_id, embedding=None)
    }
    hits = [_hit(s, full[s.id], seeds, own, rrf_scores, received) for s in top if s.id in full]
    if req.reinforce and req.when.now and rt.settings.reinforce_on_recall:
        competitors = ranked[req.k : 2 * req.k] if rt.settings.retrieval_induced_forgetting else []
        _change_memory(
            rt, req.user_id, [candidates[s.id] for s in top], [candidates[s.id] for s in competitors], now
        )
    if rt.settings.record_recalls:
        _record(rt, req, hits, decision.intent.value, now)
    return hits


def current_first(
    own: Mapping[str, float], candidates: Mapping[str, dict[str, Any]], req: RecallRequest, now: datetime
) -> dict[str, float]:
    """Outdated statements score down for present-tense questions (graphmem.model.timescope): applied to
    the relevance they spread, and to their final score (activation a successor passes back through a
    shared entity must not lift them over it)."""
    memories = {mid: row["memory"] for mid, row in candidates.items()}
    return prefer_current(own, memories, req.query, req.when, now)


def _fetch(
    rt: Runtime, ids: list[str], user_id: str, embedding: list[float] | None
) -> dict[str, dict[str, Any]]:
    rows = rt.store.read("candidate_fetch", ids=ids, user_id=user_id, embedding=embedding)
    return {r["memory"]["id"]: r for r in rows}


def _cosines(candidates: Mapping[str, dict[str, Any]]) -> dict[str, float]:
    return {mid: float(r["cosine"]) for mid, r in candidates.items() if r.get("cosine") is not None}


def _leading_name(query: str) -> set[str]:
    """The first word too, when it is capitalised and not a question word ("Caroline's hobbies?")."""
    first = query.strip().split(" ", 1)[0].strip("?,.!:;'\"")
    first = first.removesuffix("'s")
    if first[:1].isupper() and first.lower() not in retrieval.STOP_WORDS:
        return {first.lower()}
    return set()


def _hit(
    scored: retrieval.Scored,
    memory: dict[str, Any],
    seeds: retrieval.Seeds,
    own: Mapping[str, float],
    rrf_scores: Mapping[str, float],
    received: Mapping[str, retrieval.Reached],
) -> Hit:
    mid = scored.id
    sources = {src: ranking.index(mid) + 1 for src, ranking in seeds.rankings.items() if mid in ranking}
    reached = received.get(mid)
    via_graph = reached is not None and reached.activation > 0
    if sources:
        level = seeds.level
        score_type = SCORE_TYPES[level]
        if level == "hybrid":
            raw = rrf_scores.get(mid, 0.0)
        else:
            (only,) = seeds.rankings
            raw = seeds.raw[only][mid]
    else:
        level, score_type, raw = "graph", "activation", reached.activation if reached else 0.0
    components = {**scored.components, "rrf": rrf_scores.get(mid, 0.0), "own": own.get(mid, 0.0)}
    return Hit(
        memory=memory_from_row(memory),
        score=scored.score,
        explanation=Explanation(
            search_level=level,
            score_type=score_type,
            raw_score=float(raw),
            seed_sources=sources,
            path=list(reached.path) if reached and via_graph else [mid],
            edge_types=list(reached.edge_types) if reached and via_graph else [],
            components=components,
        ),
    )


def _change_memory(
    rt: Runtime,
    user_id: str,
    returned: list[dict[str, Any]],
    competitors: list[dict[str, Any]],
    now: datetime,
) -> None:
    def strength_of(row: dict[str, Any]) -> tuple[str, float, int]:
        memory = row["memory"]
        return str(memory["id"]), float(memory.get("strength") or 1.0), int(memory.get("access_count") or 0)

    up = []
    for row in returned:
        mid, strength, count = strength_of(row)
        up.append({"id": mid, "strength": reinforced_strength(strength, count)})
    down = []
    for row in competitors:
        mid, strength, _ = strength_of(row)
        down.append({"id": mid, "strength": suppressed_strength(strength)})

    def work(tx: Tx) -> None:
        if up:
            tx.run("memory_reinforce", updates=up, user_id=user_id, now=now)
        if down:
            tx.run("memory_suppress", updates=down, user_id=user_id, now=now)

    rt.store.unit_of_work(work)


def _record(rt: Runtime, req: RecallRequest, hits: list[Hit], intent: str, now: datetime) -> None:
    event = {
        "id": str(uuid.uuid4()),
        "user_id": req.user_id,
        "query": req.query,
        "memory_ids": [h.memory.id for h in hits],
        "levels": [h.explanation.search_level for h in hits],
        "scores": [h.score for h in hits],
        "intent": intent,
        "as_of": req.as_of,
        "known_at": req.known_at,
        "k": req.k,
    }
    rt.store.write("recall_record", event=event, now=now)


def feedback(rt: Runtime, *, memory_id: str, user_id: str, useful: bool, now: datetime | None = None) -> None:
    """Record feedback and move the memory's strength and importance (useful: up; not useful: down)."""
    rows = rt.store.read("memory_fetch", ids=[memory_id], user_id=user_id, embedding=None)
    if not rows:
        raise MemoryNotFound(memory_id)
    memory = rows[0]["memory"]
    strength = float(memory.get("strength") or 1.0)
    importance = float(memory.get("importance") or 0.5)
    if useful:
        strength = reinforced_strength(strength, int(memory.get("access_count") or 0))
        importance = min(1.0, importance + 0.05)
    else:
        strength = suppressed_strength(strength, penalty=0.2)
        importance = max(0.0, importance - 0.05)
    written = rt.store.write(
        "feedback_record",
        memory_id=memory_id,
        user_id=user_id,
        useful=useful,
        strength=strength,
        importance=importance,
        id=str(uuid.uuid4()),
        now=now or datetime.now(UTC),
    )
    if not written:
        raise MemoryNotFound(memory_id)


class PreloadCache:
    """Per-user cache of the session-start preload: stale once the user changed through this client
    (``Runtime.changes``), and expired after ``ttl`` seconds (for writes by other processes)."""

    def __init__(self, rt: Runtime, ttl: float = 300.0) -> None:
        self._rt = rt
        self._ttl = ttl
        self._entries: dict[str, tuple[float, int, int, list[Hit]]] = {}
        self._lock = threading.Lock()

    def get(self, user_id: str, k: int, *, now: datetime | None = None) -> list[Hit]:
        clock = time.monotonic()
        version = self._rt.changes.version(user_id)
        with self._lock:
            cached = self._entries.get(user_id)
        if cached and clock - cached[0] < self._ttl and cached[1] == version and cached[2] >= k:
            return cached[3][:k]
        rows = self._rt.store.read(
            "proactive_rank",
            user_id=user_id,
            now=now or datetime.now(UTC),
            k=k,
            recency_days=RECENCY_DAYS,
            frequency_ref=FREQUENCY_REF,
        )
        hits = [
            Hit(
                memory=memory_from_row(r["memory"]),
                score=float(r["score"]),
                explanation=Explanation(
                    search_level="proactive", score_type="preload", raw_score=float(r["score"])
                ),
            )
            for r in rows
        ]
        with self._lock:
            self._entries[user_id] = (clock, version, k, hits)
        return hits
