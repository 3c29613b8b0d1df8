"""Per-memory signals of a recall pool, before the graph: the better of a memory's two keys (its own words
and its context), whether a turn only asks, how well its episode matches, how far it stands out of the pool
and how many of the query's words it covers. Pure (no database)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any

from graphmem.model.scoring import ASKING_FACTOR, asks_only, linear_fusion
from graphmem.retrieval.terms import TOKEN


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


def spread(cosine: Mapping[str, float], seeds: Mapping[str, Any]) -> Any:
    """standout(mid): the memory's cosine in standard deviations above the pool's mean cosine."""
    pool = [cosine[m] for m in seeds if m in cosine]
    if len(pool) < 2:
        return lambda mid: 0.0
    mean, sd = statistics.fmean(pool), statistics.pstdev(pool) or 1e-6
    return lambda mid: (cosine.get(mid, mean) - mean) / sd


def coverage(terms: list[str], memory: Mapping[str, Any]) -> float:
    """The share of query content words found in the memory's text, a word matching any text word that
    starts with its first five letters (plurals and verb forms: "live"/"lives", "practice"/"practised")."""
    if not terms:
        return 0.0
    fields = (
        "speaker",
        "content",
        "text",
        "search_text",
    )  # pool rows carry text (search_text), fetched rows search_text
    text = " ".join(str(memory.get(f) or "") for f in fields)
    words = set(TOKEN.findall(text.lower()))
    return sum(any(w.startswith(t[:5]) for w in words) for t in terms) / len(terms)


def summary_details(
    row: Mapping[str, Any],
    cosine: Mapping[str, float],
    bm25: Mapping[str, float],
    vector_weight: float,
) -> dict[str, tuple[str, ...]]:
    """Each summary's sources it was found by (recall_pool's ``via``: the replaced source whose key gave the
    summary its vector or its full-text score), the one whose channel gave the larger share of the summary's
    fused score first (each channel's share as :func:`linear_fusion` weighs it)."""
    by_meaning, by_words = linear_fusion(cosine, {}, vector_weight), linear_fusion({}, bm25, vector_weight)
    out: dict[str, tuple[str, ...]] = {}
    for seed in row["seeds"]:
        vias = {f["source"]: f["via"] for f in seed["found"] if f.get("via")}
        if not vias:
            continue
        mid = seed["id"]
        share = {"vector": by_meaning.get(mid, 0.0), "fulltext": by_words.get(mid, 0.0)}
        ordered = sorted(vias, key=lambda source: -share.get(source, 0.0))
        out[mid] = tuple(dict.fromkeys(vias[source] for source in ordered))
    return out
