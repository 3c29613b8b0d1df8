"""Metamemory: what the engine knows about each memory's own recallability. Pure functions, no database.

Per memory, three estimates in [0, 1]:

- **accessibility**: how often recall finds it when it is in play. ``recall_hits`` counts the recalls that
  returned it, ``recall_misses`` the recalls that activated it (a competitor close to the cue) without
  returning it; accessibility is their Beta(1, 1) posterior mean ``(hits + 1) / (hits + misses + 2)`` (0.5
  for a memory recall has never met), times how free it is of retrieval-induced inhibition right now.
- **reliability**: source trust (the memory's own ``confidence``), verification (useful feedback confirms,
  not-useful feedback disputes) and unresolved conflicts (``CONFLICTS_WITH`` another live memory).
- **timeliness**: 1 for a current statement, falling with the days since it was last confirmed (recorded,
  recalled or given feedback) on a one-year scale, and 0.2 once a later statement made it outdated.

**Retrieval-induced forgetting** (Anderson, Bjork & Bjork 1994): recalling a memory inhibits the memories the
cue also activated but recall did not return (its *competitors*). The activation of a candidate is its own
relevance to the cue (fused cosine and full-text score, before the graph) relative to the best returned
memory's; candidates at :data:`COMPETITOR_ACTIVATION` or above that were not returned are the competitors.
Each gains inhibition ``i' = 1 - (1 - i)(1 - rate · activation)`` (capped at ``max_inhibition``), which
recovers with a half-life (``recovery_days``) and is released when recall returns the memory. Ranking
multiplies a memory's score by ``1 - inhibition now`` (:func:`ranking_factor`), so the competitor is really
harder to recall; nothing is deleted and the strength the decay job reads is untouched.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any


@dataclass(frozen=True)
class RifParams:
    """The three parameters of retrieval-induced forgetting, each with its reason."""

    rate: float = 0.15
    """Inhibition a fully activated competitor gains per recall (Anderson's paradigm shows the effect after a
    few practice trials: three rounds of three practised items leave a competitor at about 0.5)."""
    max_inhibition: float = 0.6
    """A competitor keeps at least 40 % of its score: inhibition hides, it never erases."""
    recovery_days: float = 1.0
    """Half-life of the inhibition: the effect is measured over minutes to a day and fades after (MacLeod &
    Macrae 2001), so a memory is never kept down for long by questions about its neighbours."""

    def cypher(self) -> dict[str, float]:
        return asdict(self)


RIF = RifParams()
COMPETITOR_ACTIVATION = 0.5
"""A candidate competes when its own relevance to the cue is at least half the best returned memory's."""
MAX_COMPETITORS = 5
"""Most competitors inhibited per recall, the strongest first. Retrieval-induced forgetting falls on the few
strong competitors of a cue (in Anderson's paradigm a category's other exemplars, five in
``benchmarks/rif_experiment.py``), not on everything it activated: with 20, an agent's recalls of half of a
LoCoMo conversation's questions inhibited 540 of ~1,300 memories and cost the other half 0.038 R@10 (0.024 on
the practised half); with 5 the unpractised half keeps its R@10 (+0.000; the practised half -0.007) and the
retrieval-practice effect stays the same (RIF +0.37). ``benchmarks/rif_use.py`` measures the first, and
``benchmarks/rif_experiment.py`` the second (docs/dynamics.md)."""


def _unit(x: float) -> float:
    return min(1.0, max(0.0, x))


def _days(since: datetime | None, now: datetime) -> float:
    if since is None:
        return math.inf
    return max(0.0, (now - since).total_seconds() / 86400.0)


# --- retrieval-induced forgetting --------------------------------------------------------------------
def inhibition_now(
    inhibition: float | None, inhibited_at: datetime | None, now: datetime, params: RifParams = RIF
) -> float:
    """The stored inhibition after its recovery since ``inhibited_at`` (halving every ``recovery_days``)."""
    if not inhibition or inhibited_at is None:
        return 0.0
    days = _days(inhibited_at, now)
    return _unit(float(inhibition)) * math.pow(0.5, days / params.recovery_days)


def inhibited_since(memory: Mapping[str, Any]) -> datetime | None:
    """When recall last inhibited a memory: a stored row's ``inhibited_at``, or a recall pool row's
    ``inhibited_ms`` (epoch milliseconds: the pool reads no times, which are slow to decode)."""
    at = memory.get("inhibited_at")
    if at is not None:
        return at  # type: ignore[no-any-return]
    ms = memory.get("inhibited_ms")
    if isinstance(ms, int) and not isinstance(ms, bool):
        try:
            return datetime.fromtimestamp(ms / 1000, UTC)
        except (OverflowError, OSError, ValueError):  # a year Python cannot hold (written by hand)
            return None
    return None


def inhibited(current: float, activation: float, params: RifParams = RIF) -> float:
    """Inhibition after one more recall that activated the memory (``activation`` in [0, 1]) without
    returning it."""
    grown = 1.0 - (1.0 - _unit(current)) * (1.0 - params.rate * _unit(activation))
    return min(params.max_inhibition, max(_unit(current), grown))


def competitors(
    relevance: Mapping[str, float], returned: Iterable[str], limit: int = MAX_COMPETITORS
) -> list[tuple[str, float]]:
    """(id, activation) of the candidates the cue activated but recall did not return, strongest first.

    ``relevance``: each candidate's own relevance to the cue (before graph spreading); activation is that
    relative to the best returned memory's, and only candidates at :data:`COMPETITOR_ACTIVATION` or above
    compete."""
    shown = set(returned)
    top = max((relevance.get(mid, 0.0) for mid in shown), default=0.0)
    if top <= 0:
        return []
    found = [
        (mid, min(1.0, value / top))
        for mid, value in relevance.items()
        if mid not in shown and value >= COMPETITOR_ACTIVATION * top
    ]
    return sorted(found, key=lambda x: (-x[1], x[0]))[:limit]


CONFLICT_SUPPRESSION = 0.2
"""Inhibition between conflicting memories: each side of an open conflict (neither confirmed yet) ranks 20 %
lower until feedback confirms one of them (then the confirmed one is free again)."""


def ranking_factor(memory: Mapping[str, Any], now: datetime, params: RifParams = RIF) -> float:
    """What ranking multiplies a memory's score by: ``1 - inhibition now``, times ``1 - CONFLICT_SUPPRESSION``
    while it has open conflicts and is not confirmed (1 for a memory never inhibited and without conflicts,
    so a store recall never wrote to ranks exactly as without metamemory)."""
    factor = 1.0 - inhibition_now(memory.get("inhibition"), inhibited_since(memory), now, params)
    if int(memory.get("open_conflicts") or 0) > 0 and not int(memory.get("confirmed") or 0):
        factor *= 1.0 - CONFLICT_SUPPRESSION
    return factor


# --- the three estimates -----------------------------------------------------------------------------
def accessibility(hits: int, misses: int, inhibition: float = 0.0) -> float:
    """Beta(1, 1) posterior mean of being returned when in play, times ``1 - inhibition now``."""
    h, m = max(0, hits), max(0, misses)
    return (h + 1) / (h + m + 2) * (1.0 - _unit(inhibition))


def reliability(source_trust: float, confirmed: int, disputed: int, conflicts: int) -> float:
    """Source trust moved by verification (each confirmation closes a third of the gap to 1, each dispute
    takes a third away) and halved per unresolved conflict. In closed form, so that a huge stored count (set
    by hand) costs no more than a small one: ``1 - (1 - r) · (2/3)^confirmed``, then ``· (2/3)^disputed``."""
    r = 1.0 - (1.0 - _unit(source_trust)) * (2.0 / 3.0) ** max(0, confirmed)
    return r * (2.0 / 3.0) ** max(0, disputed) * 0.5 ** max(0, conflicts)


def timeliness(days_since_confirmed: float, outdated: bool) -> float:
    """1 when just confirmed, ``e^(-days / 365)`` after; 0.2 at most once a later statement outdated it."""
    value = math.exp(-max(0.0, days_since_confirmed) / 365.0)
    return min(0.2, value) if outdated else value


@dataclass(frozen=True)
class Metamemory:
    accessibility: float
    reliability: float
    timeliness: float

    def as_dict(self) -> dict[str, float]:
        return {
            "accessibility": self.accessibility,
            "reliability": self.reliability,
            "timeliness": self.timeliness,
        }


def of(memory: Mapping[str, Any], now: datetime, params: RifParams = RIF) -> Metamemory:
    """The three estimates from a stored memory row (missing counters count 0)."""
    times = (memory.get("recorded_at"), memory.get("last_accessed_at"), memory.get("confirmed_at"))
    last = max((t for t in times if t), default=None)
    return Metamemory(
        accessibility=accessibility(
            int(memory.get("recall_hits") or 0),
            int(memory.get("recall_misses") or 0),
            inhibition_now(memory.get("inhibition"), memory.get("inhibited_at"), now, params),
        ),
        reliability=reliability(
            _float(memory.get("confidence"), 1.0),
            int(memory.get("confirmed") or 0),
            int(memory.get("disputed") or 0),
            int(memory.get("open_conflicts") or 0),
        ),
        timeliness=timeliness(
            0.0 if last is None else _days(last, now),
            memory.get("outdated_from") is not None and memory.get("reinstated_at") is None,
        ),
    )


def confidence(answer: float, meta: Metamemory) -> float:
    """``Hit.confidence``: the estimate that the memory answers the query, times how far it can be trusted
    (reliability) and how current it is (timeliness, never below one half: an old fact is still a fact)."""
    return _unit(answer) * meta.reliability * (0.5 + 0.5 * meta.timeliness)


def _float(value: Any, default: float) -> float:
    return default if value is None else float(value)
