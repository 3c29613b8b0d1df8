"""Scoring math of the read path: fusion, personalized PageRank, diversification, confidence,
reinforcement. Pure functions."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence

import numpy as np


def rrf(rankings: Mapping[str, Sequence[str]], k: int = 60) -> dict[str, float]:
    """Reciprocal rank fusion: score(d) = Σ_lists 1 / (k + rank_list(d)), ranks starting at 1."""
    scores: dict[str, float] = {}
    for ranking in rankings.values():
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return scores


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


def memory_state(retention: float, strength: float, importance: float, confidence: float) -> float:
    """How alive a memory is, in [0, 1]: 0.4 retention + 0.2 strength (0–4 scale) + 0.2 importance + 0.2
    confidence of the memory itself."""
    return (
        0.4 * _unit(retention)
        + 0.2 * _unit(strength / 4.0)
        + 0.2 * _unit(importance)
        + 0.2 * _unit(confidence)
    )


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

OTHER_VOICE_FACTOR = 0.5
"""The confidence of a turn spoken by someone other than the one speaker the question asks about ("What did
Caroline realise after her race?" answered by Melanie's "I ran a charity race"): in the LoCoMo development
conversations such a top hit was evidence for 6 of 147 answerable questions, against 296 of 533 when the
named speaker said it; as the top hit of a false-premise question it is the usual case. Halved, as a turn
that only asks is halved in ranking: its words may still be what the question wants."""

ASKING_FACTOR = 0.5
"""A memory that only asks ("What inspired it?") states nothing: as evidence of what the user knows it is
worth half the same match on a statement. Halved, not dropped (a question can be what is wanted), and only in
the final score: as a PageRank restart it keeps its full weight, so the reply after it gains. Its confidence
is halved too (graphmem.retrieval.signals.answer_judge): of the 67 question-only turns among the top 10 of the
760 answerable LoCoMo development questions (round 36), one was evidence, against 11 % of the statements at
the same confidence (0.4–0.6)."""


@functools.lru_cache(maxsize=65536)
def asks_only(content: str) -> bool:
    """Whether every sentence of ``content`` is a question or an interjection of at most three words
    ("Wow, Caroline!"): a turn that asks without stating anything. Cached: recall asks it of every memory
    of its pool, and a memory's words do not change."""
    sentences = [s for s in _SENTENCE_END.split(content.strip()) if s]
    return any(s.rstrip().endswith("?") for s in sentences) and all(
        (s.rstrip().endswith("?") and not _states_first(s)) or len(s.split()) <= 3 for s in sentences
    )


# What opens a question without stating anything of the speaker: a preamble ("I have a quick question, ...",
# "I was just wondering, ..."), a word in -ing that is no verb of the speaker's ("According to the forecast",
# "Anything in particular you'd like"), or one that looks at something else ("Looking at the map, ...").
_ASKS_FIRST = (
    r"(?:I|we)(?:'m|'re| am| are| was| were)?(?: just| only| really)? (?:wondering|curious)\b"
    r"|(?:I|we) (?:have|had|'ve got|'ve|got) (?:a|another|one more|one)(?: \w+)? question\b"
    r"|(?:my|our) question\b"
    r"|(?:according|regarding|concerning|something|anything|nothing|everything|looking|speaking|talking"
    r"|moving on|going back|coming back|getting back)\b"
)

# A question that first says something of the speaker, in a clause of its own before a comma or a dash:
# "I live in Leeds, any tips for a gym?", "living in Cape Town, any good hikes?" (the subject left out, as in
# chat), "my dog is sick - what should I do?". Such a turn states what it says; the clause must begin with
# I/we/my/our or a verb in -ing and a preposition, and hold four words or more ("I mean, isn't it?", "I love
# that, how did you do it?" still only ask). A clause that supposes ("If I moved to Leeds, would I...") is
# not one: it starts with its subordinating word; nor is a clause :data:`_ASKS_FIRST` opens.
_FIRST_CLAUSE = re.compile(
    r"^\W*(?!" + _ASKS_FIRST + r")"
    r"(?:(?:I|we)(?:'m|'re|'ve|'d)?\b|(?:my|our)\b|\w+ing (?:in|at|for|with|from|to|on|near)\b)"
    r"[^,;:?!—–]*?(?=[,;:]|\s[—–-]\s)",  # no \s* before the comma: linear on a long run of spaces
    re.IGNORECASE,
)


def _states_first(sentence: str) -> bool:
    """Whether a question sentence begins with a first-person statement of four words or more."""
    clause = _FIRST_CLAUSE.match(sentence)
    return clause is not None and len(clause.group().split()) >= 4


def personalized_pagerank(
    n: int,
    edges: Sequence[tuple[int, int, float]],
    restart: Sequence[float],
    damping: float,
    iterations: int = 30,
) -> list[float]:
    """PageRank with restart distribution ``restart`` over ``n`` nodes and undirected weighted ``edges``.

    p ← (1 − d)·r + d·Wᵀp, W row-normalised by each node's weighted degree; a node without edges sends its
    mass back to the restart distribution (so the scores stay a distribution). 30 power iterations with
    d = 0.5 converge to < 1e-9 (the error shrinks by d per iteration).
    """
    if n == 0:
        return []
    r = np.asarray(restart, dtype=float)
    total = r.sum()
    r = r / total if total > 0 else np.full(n, 1.0 / n)
    if not edges:
        return [float(x) for x in r]
    e = np.asarray(edges, dtype=float).reshape(-1, 3)
    e = e[np.isfinite(e[:, 2]) & (e[:, 2] > 0)]  # an edge of no (or no readable) weight carries nothing
    src = np.concatenate([e[:, 0], e[:, 1]]).astype(np.intp)
    dst = np.concatenate([e[:, 1], e[:, 0]]).astype(np.intp)
    w = np.concatenate([e[:, 2], e[:, 2]])
    degree = np.bincount(src, weights=w, minlength=n)
    share = w / degree[src]
    isolated = degree == 0
    p = r.copy()
    for _ in range(iterations):
        nxt = np.bincount(dst, weights=p[src] * share, minlength=n)
        p = (1 - damping) * r + damping * (nxt + p[isolated].sum() * r)
    return p.tolist()


def diversify(scores: Sequence[tuple[str, float, str | None]], k: int, penalty: float) -> list[str]:
    """Greedy final cut over (id, score, group): each hit already taken from a group discounts that group's
    next candidates by the factor (1 − penalty) (MMR with the session as the redundancy measure)."""
    if penalty <= 0:
        return [doc for doc, _, _ in sorted(scores, key=lambda s: -s[1])[:k]]
    taken: dict[str | None, int] = {}
    left = list(scores)
    out: list[str] = []
    while left and len(out) < k:
        best = max(
            range(len(left)),
            key=lambda i: (
                left[i][1] * (1 - penalty) ** taken.get(left[i][2], 0) if left[i][2] else left[i][1]
            ),
        )
        doc, _, group = left.pop(best)
        out.append(doc)
        if group is not None:
            taken[group] = taken.get(group, 0) + 1
    return out


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def answer_confidence(standout: float, coverage: float) -> float:
    """The estimate that a memory answers the query, in [0, 1], from two query-relative features:

    - ``standout``: how far the memory's cosine stands above the candidate pool, in standard deviations of
      the pool's cosines (the pool is the tenant's best 100, so this is relative to the tenant, not to the
      embedder's absolute scale);
    - ``coverage``: the share of the query's content words the memory's text contains (names above all:
      a question about someone the user never mentioned matches none).

    logit = 1.5 (standout − 2) + 4 (coverage − 0.5): a memory two deviations above the pool that holds half
    the query's words is a coin flip; each further deviation or each further 25 % of the words moves the
    odds about e (×2.7). The constants are fixed by that rule, not fitted to benchmark labels.
    """
    return sigmoid(1.5 * (standout - 2.0) + 4.0 * (coverage - 0.5))


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
