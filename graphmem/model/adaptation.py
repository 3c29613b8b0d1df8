"""Self-evolution as pure rules: which per-user retrieval parameters feedback may move, within which bounds,
and how a candidate setting is judged against the feedback it must explain.

Three parameters of the final score of ``graphmem.retrieval.search.rank`` may be tuned per user
(:data:`TUNABLE`, with their bounds, so that no user can switch a retrieval source off):

- ``vector_weight``: cosine against full text (BM25) in the fusion of the pool;
- ``graph_weight``: personalized PageRank over the neighbourhood against the fused score;
- ``speaker_boost``: what a memory gains when the question names its speaker (at most 0.3: above it,
  questions that name the wrong person lose their answer, docs/recall.md).

Feedback searches two of them (:data:`SEARCHED`): how much a user's questions chain through people and
events (``graph_weight``) and how often a question about a person wants that person's own words
(``speaker_boost``). ``vector_weight`` is pinned by hand only: chosen per user from half of a user's
judged questions, it made the other half worse on the development data (docs/dynamics.md), while the
speaker boost carried over. The grid is small (24 settings, the defaults on it), so the search is
exhaustive and cheap: the pool is fetched once per judged query and only re-ranked per candidate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

TUNABLE: dict[str, tuple[float, float]] = {
    "vector_weight": (0.2, 0.8),
    "graph_weight": (0.2, 0.8),
    "speaker_boost": (0.0, 0.3),
}
"""Per-user retrieval parameters, with their bounds (``mem.automation.evolution.set`` may pin any of them)."""
SEARCHED: dict[str, tuple[float, ...]] = {
    "graph_weight": (0.2, 0.35, 0.5, 0.65, 0.7, 0.8),
    "speaker_boost": (0.0, 0.1, 0.2, 0.3),
}
"""The parameters adaptation searches and the values it tries (the presets' defaults among them)."""
MIN_EVIDENCE = 5
"""Judged queries needed before any change: fewer than this is anecdote, not evidence."""
MIN_GAIN = 0.02
"""Smallest improvement of the feedback utility (mean nDCG@k of the useful memories) worth a new version."""


@dataclass(frozen=True)
class Judged:
    """One recalled query with the memories the user said helped (``useful``) or did not (``useless``)."""

    query: str
    useful: frozenset[str]
    useless: frozenset[str]


def grid(searched: Mapping[str, Sequence[float]] = SEARCHED) -> list[dict[str, float]]:
    """Every candidate setting of the searched parameters: the cartesian product of their values."""
    return [dict(zip(searched, combo, strict=True)) for combo in product(*searched.values())]


def clamp(
    params: Mapping[str, float], bounds: Mapping[str, tuple[float, float]] = TUNABLE
) -> dict[str, float]:
    """Only tunable names, each within its bounds."""
    return {k: min(max(float(v), bounds[k][0]), bounds[k][1]) for k, v in params.items() if k in bounds}


def utility(order: Sequence[str], judged: Judged, k: int = 10) -> float:
    """How well one ranking serves the user's feedback: nDCG@``k`` of the memories marked useful (binary
    gains; 1 when all of them lead the ranking, 0 when none is in the top ``k``).

    Every useful memory counts, not only the best one: recall exists to put all the memories an answer
    needs in front of the reader. Memories marked *not* useful are left out on purpose: the user judges what
    the current ranking showed, so they are the current setting's top hits, and any other setting ranks
    them lower by construction. Rewarding that would favour change for its own sake (a selection bias):
    on LoCoMo dev it moved ``vector_weight`` to 0.2 for a user and cost 0.04 held-out R@10. They still act
    on the memories themselves (feedback lowers their strength)."""
    gains = [1.0 / math.log2(i + 2) for i, mid in enumerate(order[:k]) if mid in judged.useful]
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(judged.useful))))
    return sum(gains) / ideal if ideal else 0.0


@dataclass(frozen=True)
class Choice:
    """The outcome of one adaptation: the chosen setting, whether it differs from the current one, and the
    utilities that decided it."""

    params: dict[str, float]
    changed: bool
    evidence: int
    current_utility: float
    best_utility: float
    reason: str


Key = tuple[tuple[str, float], ...]


def consistent(per_query: Sequence[float], baseline: Sequence[float]) -> bool:
    """More judged queries helped than hurt (a sign test's majority): a mean gain carried by a few queries
    is an overfit to them, not a better setting for the user."""
    helped = sum(1 for a, b in zip(per_query, baseline, strict=True) if a > b + 1e-9)
    hurt = sum(1 for a, b in zip(per_query, baseline, strict=True) if a < b - 1e-9)
    return helped > hurt


def choose(current: Mapping[str, float], per_query: Mapping[Key, Sequence[float]], evidence: int) -> Choice:
    """Pick the setting to keep. ``per_query``: each candidate's utility per judged query (candidates as
    sorted item tuples, the current setting included). Changes only with at least ``MIN_EVIDENCE`` judged
    queries, for a candidate whose mean gains at least ``MIN_GAIN`` and that helps more queries than it
    hurts; among those within ``MIN_GAIN / 2`` of the best, the one closest to the current setting wins
    (the smallest change the evidence supports)."""
    key = tuple(sorted(current.items()))
    scores = {c: sum(u) / max(1, len(u)) for c, u in per_query.items()}
    now_u = scores.get(key, 0.0)
    if not scores:
        return Choice(dict(current), False, evidence, now_u, now_u, "no candidates")
    base = per_query.get(key, [0.0] * len(next(iter(per_query.values()))))
    fair = {c: u for c, u in scores.items() if c == key or consistent(per_query[c], base)}
    best_u = max(scores.values())
    if evidence < MIN_EVIDENCE:
        return Choice(
            dict(current), False, evidence, now_u, best_u, f"fewer than {MIN_EVIDENCE} judged queries"
        )
    if max(fair.values(), default=now_u) - now_u < MIN_GAIN:
        reason = "no candidate improves enough" if best_u - now_u < MIN_GAIN else "gain not consistent"
        return Choice(dict(current), False, evidence, now_u, best_u, reason)
    best_u = max(fair.values())
    near = [c for c, u in fair.items() if u >= best_u - MIN_GAIN / 2]

    def distance(c: tuple[tuple[str, float], ...]) -> float:
        return sum(abs(v - current.get(n, v)) for n, v in c)

    pick = min(near, key=lambda c: (distance(c), -scores[c]))
    return Choice(dict(pick), True, evidence, now_u, scores[pick], "feedback favours the new setting")
