"""The read path: hybrid seeds, spreading activation over the multi-graph, the final blend.

Seeds come from the vector index (planned per tenant) and the full-text index, fused by reciprocal rank
fusion; a fallback chain (hybrid → vector → full-text → substring) keeps recall working when a part is
unavailable or finds nothing. Activation spreads from the seeds in Neo4j, one bounded hop per query.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from graphmem.config import RetrievalPreset
from graphmem.errors import GraphMemError
from graphmem.model.intent import VIEW_EDGE, View
from graphmem.model.scoring import BlendWeights, final_score, linear_fusion, memory_state, rrf
from graphmem.model.timescope import TimeScope
from graphmem.store.runtime import Runtime

logger = logging.getLogger(__name__)

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")
STOP_WORDS = frozenset(  # English function words dropped from full-text queries
    (  # noqa: SIM905
        "a an the and or but if of to in on at by for with about against between into through during "
        "before after above below from up down out off over under again further then once here there all "
        "any both each few more most other some such no nor not only own same so than too very can will "
        "just should now is are was were be been being have has had having do does did doing i me my "
        "myself we our ours you your yours he him his she her hers it its they them their what which who "
        "whom this that these those am would could shall may might must how when where why s t don"
    ).split()
)
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')


@dataclass(frozen=True)
class VectorPlan:
    """How to find a tenant's top-k by cosine. Pure data, decided by :func:`plan_vector_search`."""

    method: str  # "exact" | "index"
    fetch: int  # neighbours to request from the ANN index (index method only)


def plan_vector_search(user_count: int, total: int, k: int, preset: RetrievalPreset) -> VectorPlan:
    """Exact scan for small tenants (true top-k); ANN with over-fetch sized to the tenant's share otherwise.

    Neo4j 5.26's vector index cannot filter by tenant inside the index, so asking it for k neighbours
    would return other users' memories. A tenant holding a share s of all memories needs about k / s
    neighbours to see k of its own; we ask for ``overfetch`` times that, and the caller falls back to the
    exact scan when the filtered result is still short.
    """
    if user_count <= preset.exact_scan_max or total <= 0:
        return VectorPlan("exact", 0)
    share = user_count / total
    fetch = max(k, min(math.ceil(k / share * preset.overfetch), total))
    if fetch > preset.max_fetch:  # a small share of a huge index: scanning the tenant is cheaper
        return VectorPlan("exact", 0)
    return VectorPlan("index", fetch)


def query_terms(text: str) -> list[str]:
    """Lower-case content words of a query (stop words dropped, order kept, no repeats)."""
    seen: dict[str, None] = {}
    for token in _TOKEN.findall(text.lower()):
        if token not in STOP_WORDS and len(token) > 1:
            seen.setdefault(token, None)
    return list(seen)


def lucene_query(terms: list[str], user_key: str) -> str:
    """A Lucene query requiring the tenant token and any of the terms (each escaped)."""
    escaped = " ".join(_LUCENE_SPECIAL.sub(r"\\\1", t) for t in terms)
    return f"+user_key:{user_key} +({escaped})"


# --- seeds ------------------------------------------------------------------------------------------
@dataclass
class Seeds:
    """Seed candidates: per source, ids in rank order with raw scores; and the level that produced them."""

    level: str
    vector_method: str | None = None
    rankings: dict[str, list[str]] = field(default_factory=dict)
    raw: dict[str, dict[str, float]] = field(default_factory=dict)

    def ids(self) -> list[str]:
        return list(dict.fromkeys(i for ranking in self.rankings.values() for i in ranking))

    def rrf(self, k: int) -> dict[str, float]:
        """RRF scores normalised to [0, 1] by the best possible fused score."""
        scores = rrf(self.rankings, k)
        best = len(self.rankings) / (k + 1) if self.rankings else 1.0
        return {doc: s / best for doc, s in scores.items()}

    def own_scores(self, cosine: Mapping[str, float], preset: RetrievalPreset) -> dict[str, float]:
        """Each candidate's own relevance in [0, 1]: the preset's fusion of its vector and full-text scores
        (``linear``: normalised scores, default; ``rrf``: reciprocal rank fusion); a single-source level
        uses that source's normalised score."""
        if preset.fusion == "rrf" and len(self.rankings) > 1:
            fused = self.rrf(preset.rrf_k)
            return {key: fused.get(key, 0.0) for key in set(fused) | set(cosine)}
        bm25 = self.raw.get("fulltext", self.raw.get("substring", {}))
        weight = preset.vector_weight if cosine else 0.0
        return linear_fusion(cosine, bm25, weight)


def vector_seeds(
    rt: Runtime, embedding: list[float], *, user_id: str, k: int, when: TimeScope
) -> tuple[list[dict[str, Any]], str]:
    """The user's top-k memory ids by cosine, and the method used ("exact" or "index")."""
    sizes = rt.tenant_sizes.get(user_id)
    if sizes is None:
        counts = rt.store.read("user_memory_count", user_id=user_id)[0]
        sizes = (int(counts["user_count"]), int(counts["total"]))
        rt.tenant_sizes.put(user_id, *sizes)
    user_count, total = sizes
    plan = plan_vector_search(user_count, total, k, rt.settings.preset())
    if plan.method == "index":
        rows = rt.store.read(
            "recall_vector_index",
            user_id=user_id,
            embedding=embedding,
            k=k,
            fetch=plan.fetch,
            **when.params(),
        )
        if len(rows) >= min(k, user_count):
            return rows, "index"
    rows = rt.store.read("recall_exact", user_id=user_id, embedding=embedding, k=k, **when.params())
    return rows, "exact"


def gather_seeds(
    rt: Runtime,
    query: str,
    embedding: list[float] | None,
    *,
    user_id: str,
    user_key: str,
    k: int,
    when: TimeScope,
) -> Seeds:
    """Hybrid seeds with the fallback chain hybrid → vector → full-text → substring."""
    seeds = Seeds(level="none")
    if embedding is not None:
        try:
            rows, method = vector_seeds(rt, embedding, user_id=user_id, k=k, when=when)
        except GraphMemError as exc:  # e.g. the vector index is missing
            logger.info("vector seeds unavailable: %s", exc)
        else:
            if rows:
                seeds.rankings["vector"] = [r["id"] for r in rows]
                seeds.raw["vector"] = {r["id"]: float(r["score"]) for r in rows}
                seeds.vector_method = method
    terms = query_terms(query)
    if terms:
        try:
            rows = rt.store.read(
                "recall_fulltext",
                lucene=lucene_query(terms, user_key),
                user_id=user_id,
                k=k,
                **when.params(),
            )
        except GraphMemError as exc:  # e.g. the full-text index is missing
            logger.info("full-text seeds unavailable: %s", exc)
        else:
            if rows:
                seeds.rankings["fulltext"] = [r["id"] for r in rows]
                seeds.raw["fulltext"] = {r["id"]: float(r["score"]) for r in rows}
    if "vector" in seeds.rankings and "fulltext" in seeds.rankings:
        seeds.level = "hybrid"
    elif "vector" in seeds.rankings:
        seeds.level = "vector"
    elif "fulltext" in seeds.rankings:
        seeds.level = "fulltext"
    else:
        words = [t for t in _TOKEN.findall(query.lower()) if len(t) > 2] or [query.strip().lower()]
        rows = rt.store.read("recall_substring", terms=words, user_id=user_id, k=k, **when.params())
        if rows:
            seeds.level = "substring"
            seeds.rankings["substring"] = [r["id"] for r in rows]
            seeds.raw["substring"] = {r["id"]: float(r["score"]) for r in rows}
    return seeds


# --- spreading activation ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ActivationSettings:
    hops: int = 3
    decay: float = 0.5
    threshold: float = 0.02
    beam: int = 60
    max_fan: int = 200
    frontier: int = 20

    @classmethod
    def from_preset(cls, preset: RetrievalPreset, hops: int) -> ActivationSettings:
        return cls(
            hops=hops,
            decay=preset.hop_decay,
            threshold=preset.activation_threshold,
            beam=preset.beam,
            max_fan=preset.max_fan,
            frontier=preset.frontier,
        )


@dataclass(frozen=True)
class Reached:
    """Activation a memory received from others (not its own seed score) and the best path to it."""

    activation: float
    path: tuple[str, ...]
    edge_types: tuple[str, ...]


def spread(
    rt: Runtime,
    seeds: Mapping[str, float],
    views: Mapping[View, float],
    *,
    user_id: str,
    when: TimeScope,
    settings: ActivationSettings,
) -> dict[str, Reached]:
    """Spread activation from seeds for up to ``hops`` hops; each hop is one bounded query in Neo4j.

    A node passes on max(own seed activation, activation received); what a node receives is the best
    single path into it. Returns the received activation per memory (seeds included when a neighbour
    supports them).
    """
    received: dict[str, Reached] = {}
    weights = {VIEW_EDGE[v]: float(views.get(v, 0.0)) for v in View}
    if settings.hops <= 0 or not any(weights.values()):
        return received

    def total(mid: str) -> float:
        own = seeds.get(mid, 0.0)
        got = received[mid].activation if mid in received else 0.0
        return max(own, got)

    def path_to(mid: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if mid in received and received[mid].activation > seeds.get(mid, 0.0):
            return received[mid].path, received[mid].edge_types
        return (mid,), ()

    frontier = sorted((m for m, a in seeds.items() if a > 0), key=lambda m: -seeds[m])[: settings.frontier]
    for _ in range(settings.hops):
        if not frontier:
            break
        rows = rt.store.read(
            "activation_step",
            frontier=[{"id": m, "act": total(m)} for m in frontier],
            user_id=user_id,
            weights=weights,
            decay=settings.decay,
            threshold=settings.threshold,
            beam=settings.beam,
            max_fan=settings.max_fan,
            **when.params(),
        )
        improved: list[str] = []
        for row in rows:
            target, act = row["id"], float(row["act"])
            if target in received and received[target].activation >= act:
                continue
            before = total(target)
            parent_path, parent_edges = path_to(row["src"])
            via = row["via"] if row["entity"] is None else f"ENTITY:{row['entity']}"
            received[target] = Reached(act, (*parent_path, target), (*parent_edges, via))
            if act > before:
                improved.append(target)
        frontier = sorted(improved, key=lambda m: -total(m))[: settings.frontier]
    return received


# --- the final blend --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scored:
    id: str
    score: float
    components: dict[str, float]


def blend(
    candidates: Mapping[str, dict[str, Any]],
    own: Mapping[str, float],
    received: Mapping[str, Reached],
    named: set[str],
    weights: BlendWeights,
) -> list[Scored]:
    """Score every candidate from its own (fused seed) score, the activation its neighbours passed to it, a
    bonus when the query names its speaker, and its memory state; best first."""
    out: list[Scored] = []
    for mid, row in candidates.items():
        memory = row["memory"]
        got = received[mid].activation if mid in received else 0.0
        state = memory_state(
            _num(memory.get("retention"), 1.0),
            _num(memory.get("strength"), 1.0),
            _num(memory.get("importance"), 0.5),
            _num(memory.get("confidence"), 1.0),
            weights,
        )
        speaker = str(memory.get("speaker") or "").lower()
        score, parts = final_score(own.get(mid, 0.0), got, bool(speaker) and speaker in named, state, weights)
        if row.get("cosine") is not None:
            parts["cosine"] = float(row["cosine"])
        out.append(Scored(mid, score, parts))
    out.sort(key=lambda s: -s.score)
    return out


def _num(value: Any, default: float) -> float:
    return default if value is None else float(value)
