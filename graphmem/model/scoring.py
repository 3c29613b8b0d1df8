"""Scoring math of the read path: fusion, spreading activation, final blend, reinforcement. Pure functions."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def rrf(rankings: Mapping[str, Sequence[str]], k: int = 60) -> dict[str, float]:
    """Reciprocal rank fusion: score(d) = Σ_lists 1 / (k + rank_list(d)), ranks starting at 1."""
    scores: dict[str, float] = {}
    for ranking in rankings.values():
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return scores


def fan_factor(fan: int, max_fan: int) -> float:
    """ACT-R associative strength S − ln(fan) with S = ln(max_fan), scaled to [0, 1] by S: hubs spread less.

    An entity mentioned by one memory passes everything on; by ``max_fan`` memories or more, nothing.
    (cypher/activation_step.cypher computes the same factor in the database.)
    """
    if fan <= 1:
        return 1.0
    strength = math.log(max_fan)
    return max(0.0, strength - math.log(fan)) / strength


def passed_activation(activation: float, edge_weight: float, view_weight: float, hop_decay: float) -> float:
    """Activation passed over one edge: activation × edge weight × view weight × per-hop decay."""
    return activation * edge_weight * view_weight * hop_decay


def minmax(values: Mapping[str, float]) -> dict[str, float]:
    """Min-max normalisation to [0, 1] (all equal → all 1)."""
    if not values:
        return {}
    low, high = min(values.values()), max(values.values())
    if high - low <= 1e-12:
        return dict.fromkeys(values, 1.0)
    return {key: (v - low) / (high - low) for key, v in values.items()}


def linear_fusion(
    cosine: Mapping[str, float], bm25: Mapping[str, float], vector_weight: float = 0.5
) -> dict[str, float]:
    """Convex combination of min-max normalised cosine (over all candidates) and BM25 scaled by the best
    BM25 score (a candidate the full-text index did not return scores 0 there)."""
    cos = minmax(cosine)
    top = max(bm25.values(), default=0.0)
    keys = set(cosine) | set(bm25)
    return {
        key: vector_weight * cos.get(key, 0.0)
        + (1 - vector_weight) * (bm25.get(key, 0.0) / top if top else 0.0)
        for key in keys
    }


@dataclass(frozen=True)
class BlendWeights:
    """relevance = seed + activation × received + speaker bonus (when the query names who said it);
    final = relevance × (1 − state_weight) + state × state_weight, where state blends retention, strength,
    importance and confidence."""

    activation: float = 1.0
    speaker: float = 0.2
    state_weight: float = 0.1
    retention: float = 0.4
    strength: float = 0.2
    importance: float = 0.2
    confidence: float = 0.2


BLEND_PRESETS: dict[str, BlendWeights] = {
    "balanced": BlendWeights(),
    "relevance": BlendWeights(state_weight=0.0),
    "memory_state": BlendWeights(state_weight=0.3),
}


def memory_state(
    retention: float, strength: float, importance: float, confidence: float, w: BlendWeights
) -> float:
    """How alive a memory is, in [0, 1] (strength is on a 0–4 scale)."""
    total = w.retention + w.strength + w.importance + w.confidence
    if total <= 0:
        return 0.0
    value = (
        w.retention * _unit(retention)
        + w.strength * _unit(strength / 4.0)
        + w.importance * _unit(importance)
        + w.confidence * _unit(confidence)
    )
    return value / total


def final_score(
    seed: float, activation: float, speaker: bool, state: float, w: BlendWeights
) -> tuple[float, dict[str, float]]:
    """The blended score and its components."""
    relevance = seed + w.activation * activation + (w.speaker if speaker else 0.0)
    score = relevance * (1 - w.state_weight) + state * w.state_weight
    return score, {
        "seed": seed,
        "activation": activation,
        "speaker": float(speaker),
        "relevance": relevance,
        "state": state,
    }


def reinforced_strength(strength: float, access_count: int, gain: float = 0.5, ceiling: float = 4.0) -> float:
    """Strength after a successful recall: grows on a log scale of use, never above the ceiling.

    s' = min(ceiling, s + gain × ln(2 + n) / (1 + n)) where n is the access count before this recall:
    early recalls strengthen a lot, later ones less.
    """
    n = max(0, access_count)
    return min(ceiling, strength + gain * math.log(2 + n) / (1 + n))


def suppressed_strength(strength: float, penalty: float = 0.05, floor: float = 0.1) -> float:
    """Retrieval-induced forgetting: a competitor that was not returned loses a little strength."""
    return max(floor, strength * (1 - penalty))


def _unit(x: float) -> float:
    return min(1.0, max(0.0, x))


def proactive_score(
    importance: float,
    age_days: float,
    access_count: int,
    *,
    recency_days: float = 30.0,
    frequency_ref: int = 10,
) -> float:
    """Session-start preload rank: 0.4 importance + 0.3 recency + 0.2 frequency + 0.1 baseline.

    recency = e^(−age / recency_days) with age since last access (or creation); frequency =
    ln(1 + n) / ln(1 + frequency_ref), capped at 1.
    """
    recency = math.exp(-max(0.0, age_days) / recency_days)
    n = max(0, access_count)
    frequency = 1.0 if n >= frequency_ref else math.log(1 + n) / math.log(1 + frequency_ref)
    return 0.4 * importance + 0.3 * recency + 0.2 * frequency + 0.1
