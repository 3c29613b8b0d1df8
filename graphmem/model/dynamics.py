"""The memory-dynamics model: pure functions over plain numbers, no database.

The maintenance jobs (:mod:`graphmem.dynamics.jobs`) evaluate the same formulas set-based in Cypher;
the tests check
both against the closed forms below.

Retention (how likely a memory is still worth recalling), with ``t_a`` days since last access and ``t_c``
days since creation::

    retention = min(1, e^(-λ_type·t_a) · (1 + ln(1 + n_access)) · type_multiplier · semantic_importance / 5
                       + 0.1 · max(0, 1 - t_c / 365))
    semantic_importance = 1 + min(0.5, 0.1 · related_count)

Strength (0–4) decays exponentially towards a per-priority floor; association slows the decay::

    rate_eff = rate_priority / (1 + 0.5 · mean_association_weight)
    strength(t) = floor + (strength(0) - floor) · (1 - rate_eff)^t          (strength(0) > floor)

The form composes: decaying by ``a`` days then ``b`` days equals decaying by ``a + b`` days, which is what
makes the decay job idempotent and safe to interrupt (it decays by the days since ``strength_updated_at``).

ACT-R base-level activation ``B = ln Σ_j t_j^(-d)`` (``d = 0.5``) and its closed-form approximation from the
access count and lifetime (Petrov 2006) ``B ≈ ln(n / (1 - d)) - d · ln(L)`` are offered as an alternative.

Spaced repetition: the forgetting curve is ``R(t) = e^(-t / S)`` for stability ``S`` (days). A successful
recall after ``t`` days updates ``S' = S · (1 + gain · (1 - R(t)))`` (spaced recalls grow stability more than
massed ones, as in FSRS), capped at ``max_stability_days``. The next review is due when ``R`` falls to the
desired retention ``r*``: ``interval = -S · ln r*``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from graphmem.model.heuristics import interference

STRENGTH_MAX = 4.0
DAYS_MAX = 36_500.0
"""The longest span a day-count parameter may name (a century): the jobs add it to their clock as a Neo4j
duration, and a larger one overflowed it (every run failed until the configuration was replaced)."""
COUNT_MAX = 2**31 - 1
"""The largest count parameter (the jobs hand counts to Cypher and numpy as 64-bit integers; 2^63 failed)."""
FACTOR_MAX = 1e6
"""The largest rate, multiplier or weight (far beyond any useful value, finite in every product)."""
LIVE_STATUSES = ("active", "weak", "dormant")
Status = Literal["active", "weak", "dormant"]

_PRIORITIES = ("common", "P0", "P1", "P2", "P3")
_TYPES = ("episodic", "semantic", "procedural", "preference")
FACTORS = ("emotion", "presentation", "coherence", "serial", "depth")
EXEMPT_PRIORITIES = ("P0", "common")
"""Priorities that never decay (retention 1, strength kept, status active) and are never forgotten."""
DEFAULT_FACTOR_WEIGHTS = {
    "emotion": 1.0,
    "presentation": 1.0,
    "coherence": 0.5,
    "serial": 0.25,
    "depth": 0.25,
}
"""Salience weights: emotion and presentation count fully, coherence half, the two heuristics (serial
position, depth of processing) a quarter each: together they never outweigh one clear emotional cue."""


def _check_keys(values: Mapping[str, float], keys: Iterable[str], what: str) -> None:
    missing = set(keys) - set(values)
    if missing:
        raise ValueError(f"{what} lacks {sorted(missing)}")


class DynamicsParams(BaseModel):
    """Decay, forgetting, consolidation, association, promotion and review parameters (one preset)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    clamp_on_read: ClassVar[frozenset[str]] = frozenset(
        {
            "forget_min_age_days", "hard_delete_grace_days", "summary_min_age_days", "recall_rollup_days",
            "promote_window_days", "max_stability_days", "capacity_per_user", "summary_min_members",
            "summary_max_sentences", "associate_in_process_max", "promote_min_sessions",
            "promote_min_contexts",
            "association_slowdown", "stability_gain",
        }
    )  # fmt: skip
    """Fields bounded in round 53 (none before): a larger value stored earlier meant 'never' or 'no limit', so
    a read takes the bound (graphmem.store.lenient), not the preset's default. Other bounds reset."""

    preset: str = "balanced"
    # retention
    time_decay: dict[str, float] = Field(
        default_factory=lambda: {"episodic": 0.05, "semantic": 0.02, "procedural": 0.015, "preference": 0.01},
        description="λ per memory type (per day)",
    )
    type_multiplier: dict[str, float] = Field(
        default_factory=lambda: {"preference": 1.3, "procedural": 1.2, "semantic": 1.15, "episodic": 1.0}
    )
    priority_time_scale: dict[str, float] = Field(
        default_factory=lambda: {"common": 0.0, "P0": 0.0, "P1": 0.5, "P2": 1.0, "P3": 1.5},
        description="λ_type is multiplied by this per priority (0: never decays; P0 and common are exempt)",
    )
    # six-factor strength: salience = Σ weight · factor (each factor in [0, 1]); decay rates / (1 + salience);
    # serial (primacy/recency in a session) and depth (of processing): graphmem.model.heuristics
    factor_weights: dict[str, float] = Field(
        default_factory=lambda: dict(DEFAULT_FACTOR_WEIGHTS),
        description="weights of the emotion, presentation, coherence, serial-position and depth factors",
    )
    rival_similarity: float = Field(
        default=0.85,
        ge=0,
        le=1,
        description="interference: a stronger neighbour this similar speeds decay by 1 + similarity",
    )
    # strength
    strength_decay: dict[str, float] = Field(
        default_factory=lambda: {"common": 0.0, "P0": 0.0, "P1": 0.02, "P2": 0.05, "P3": 0.10},
        description="daily strength decay rate per priority",
    )
    strength_floor: dict[str, float] = Field(
        default_factory=lambda: {"common": 1.0, "P0": 1.0, "P1": 0.5, "P2": 0.0, "P3": 0.0},
        description="strength never decays below this (P0/P1 never decay to nothing)",
    )
    association_slowdown: float = Field(
        default=0.5, ge=0, le=FACTOR_MAX, description="rate / (1 + this · mean weight)"
    )
    store_base_activation: bool = Field(
        default=False, description="decay also stores the ACT-R base level (one more write per memory)"
    )
    edge_decay: float = Field(default=0.01, ge=0, le=1, description="daily decay of RELATED_TO weights")
    # status thresholds: retention in [0, 1], strength in [0, 4]
    weak_retention: float = Field(default=0.25, ge=0, le=1)
    dormant_retention: float = Field(default=0.15, ge=0, le=1)
    forget_retention: float = Field(default=0.10, ge=0, le=1)
    weak_strength: float = Field(default=0.5, ge=0, le=STRENGTH_MAX)
    # balanced: tuned on the LoCoMo simulation (benchmarks/dynamics_sim.py): at 0.1 a P3 memory with a few
    # associations (rate 0.10 / 1.3) lived 29 days, past the 30-day mark; at 0.2 it fades in about 3 weeks,
    # a P2 one in about 6, while P0/P1 floors (1.0, 0.5) stay above it
    dormant_strength: float = Field(default=0.3, ge=0, le=STRENGTH_MAX)
    forget_strength: float = Field(default=0.2, ge=0, le=STRENGTH_MAX)
    # forgetting
    forget_min_age_days: float = Field(default=7.0, ge=0, le=DAYS_MAX)
    forget_min_newer: int = Field(
        default=100,
        ge=0,
        le=COUNT_MAX,
        description="decay forgets a memory only once at least this many of the user's memories are newer "
        "than its last use (interference: forgetting makes room for what came after; a user who stays away "
        "adds nothing, so nothing of theirs is forgotten); 0 = by time alone",
    )
    hard_delete_grace_days: float = Field(default=30.0, ge=0, le=DAYS_MAX)
    edge_weight_floor: float = Field(default=0.05, ge=0, le=1)
    capacity_per_user: int = Field(
        default=0, ge=0, le=COUNT_MAX, description="live memories per user; 0 = no cap"
    )
    # consolidation
    duplicate_similarity: float = Field(default=0.95, ge=0, le=1)
    summary_min_age_days: float = Field(default=7.0, ge=0, le=DAYS_MAX)
    summary_min_members: int = Field(default=4, ge=2, le=COUNT_MAX)
    summary_max_sentences: int = Field(default=5, ge=1, le=COUNT_MAX)
    recall_rollup_days: float = Field(
        default=7.0,
        ge=0,
        le=DAYS_MAX,
        description="raw recall events (query, latency) are kept this long for feedback and the value panel, "
        "then folded into one rollup per user and day (graphmem.model.recall_usage)",
    )
    # association
    associate_k: int = Field(default=5, ge=1, le=100)
    associate_similarity: float = Field(
        default=0.5, ge=0, le=1, description="true cosine for a RELATED_TO edge"
    )
    associate_in_process_max: int = Field(
        default=250_000,
        ge=0,
        le=COUNT_MAX,
        description="the associate job's full pass reads a tenant's vectors into the job's process up "
        "to this many memories (384 MB at 384 dimensions); a larger tenant is linked by GDS kNN on the "
        "server when GDS is installed (in process otherwise)",
    )
    # promotion to common knowledge
    promote_window_days: float = Field(default=90.0, gt=0, le=DAYS_MAX)
    promote_session_share: float = Field(default=0.3, ge=0, le=1)
    promote_min_sessions: int = Field(default=3, ge=1, le=COUNT_MAX)
    promote_min_contexts: int = Field(default=2, ge=1, le=COUNT_MAX)
    # review (spaced repetition)
    initial_stability: dict[str, float] = Field(
        default_factory=lambda: {"common": 365.0, "P0": 30.0, "P1": 7.0, "P2": 3.0, "P3": 1.0},
        description="stability S (days) of a memory never recalled",
    )
    stability_gain: float = Field(default=3.0, ge=0, le=FACTOR_MAX)
    desired_retention: float = Field(default=0.9, gt=0, lt=1)
    max_stability_days: float = Field(default=3650.0, gt=0, le=DAYS_MAX)

    @field_validator("factor_weights", mode="before")
    @classmethod
    def _new_factors_default(cls, value: object) -> object:
        """A config stored before a factor existed gets that factor's default weight (never a failed read)."""
        if isinstance(value, dict):
            return {**DEFAULT_FACTOR_WEIGHTS, **value}
        return value

    @model_validator(mode="after")
    def _consistent(self) -> DynamicsParams:
        _check_keys(self.time_decay, _TYPES, "time_decay")
        _check_keys(self.type_multiplier, _TYPES, "type_multiplier")
        _check_keys(self.strength_decay, _PRIORITIES, "strength_decay")
        _check_keys(self.strength_floor, _PRIORITIES, "strength_floor")
        _check_keys(self.initial_stability, _PRIORITIES, "initial_stability")
        _check_keys(self.priority_time_scale, _PRIORITIES, "priority_time_scale")
        _check_keys(self.factor_weights, FACTORS, "factor_weights")
        for name, table, high in [
            ("time_decay", self.time_decay, FACTOR_MAX),
            ("type_multiplier", self.type_multiplier, FACTOR_MAX),
            ("strength_decay", self.strength_decay, 1.0),
            ("strength_floor", self.strength_floor, STRENGTH_MAX),
            ("initial_stability", self.initial_stability, DAYS_MAX),
            ("priority_time_scale", self.priority_time_scale, FACTOR_MAX),
            ("factor_weights", self.factor_weights, FACTOR_MAX),
        ]:
            for key, value in table.items():
                if not (0 <= value <= high) or math.isnan(value):
                    raise ValueError(f"{name}[{key}] = {value} is outside [0, {high}]")
        if not self.forget_retention <= self.dormant_retention <= self.weak_retention:
            raise ValueError("retention thresholds must satisfy forget <= dormant <= weak")
        if not self.forget_strength <= self.dormant_strength <= self.weak_strength:
            raise ValueError("strength thresholds must satisfy forget <= dormant <= weak")
        return self

    def cypher(self) -> dict[str, object]:
        """The parameters as one Cypher map (``$p``)."""
        return self.model_dump(exclude={"preset"})


PRESETS: dict[str, DynamicsParams] = {
    "balanced": DynamicsParams(),
    # Keeps more: slower decay, later forgetting. For assistants whose users come back rarely.
    "conservative": DynamicsParams(
        preset="conservative",
        strength_decay={"common": 0.0, "P0": 0.0, "P1": 0.01, "P2": 0.03, "P3": 0.06},
        forget_strength=0.1,
        forget_min_age_days=30.0,
        hard_delete_grace_days=90.0,
    ),
    # Forgets faster: for high-volume agents with a tight store budget.
    "aggressive": DynamicsParams(
        preset="aggressive",
        strength_decay={"common": 0.0, "P0": 0.0, "P1": 0.03, "P2": 0.08, "P3": 0.15},
        forget_min_age_days=3.0,
        hard_delete_grace_days=7.0,
        forget_strength=0.25,
    ),
}


# --- retention -------------------------------------------------------------------------------------
def semantic_importance(related_count: int) -> float:
    return 1.0 + min(0.5, 0.1 * max(0, related_count))


def recency_bonus(days_since_creation: float) -> float:
    return 0.1 * max(0.0, 1.0 - days_since_creation / 365.0)


def retention(
    *,
    memory_type: str,
    days_since_access: float,
    days_since_creation: float,
    access_count: int,
    related_count: int,
    params: DynamicsParams,
    priority: str = "P2",
    salience: float = 0.0,
    rivalry: float = 0.0,
) -> float:
    """The retention formula (see the module docstring); 1 for P0 and common knowledge. Interference (a
    stronger near-duplicate of similarity ``rivalry``) multiplies λ by ``1 + rivalry``."""
    if priority in EXEMPT_PRIORITIES:
        return 1.0
    rate = (
        params.time_decay[memory_type]
        * params.priority_time_scale[priority]
        * interference(rivalry)
        / (1.0 + max(0.0, salience))
    )
    time_decay = math.exp(-rate * max(0.0, days_since_access))
    frequency_boost = 1.0 + math.log(1 + max(0, access_count))
    core = (
        time_decay
        * frequency_boost
        * params.type_multiplier[memory_type]
        * semantic_importance(related_count)
    )
    return min(1.0, core / 5.0 + recency_bonus(days_since_creation))


# --- strength --------------------------------------------------------------------------------------
def effective_rate(
    rate: float, mean_association: float, slowdown: float = 0.5, salience: float = 0.0, rivalry: float = 0.0
) -> float:
    """The daily strength decay rate: slowed by association and salience, sped up by interference, at most
    1."""
    slowing = (1.0 + slowdown * max(0.0, mean_association)) * (1.0 + max(0.0, salience))
    slowed = rate * interference(rivalry) / slowing
    return min(1.0, slowed)


def salience(factors: Mapping[str, float | None], params: DynamicsParams) -> float:
    """Σ weight · factor over emotion, presentation and coherence (a missing factor counts 0)."""
    return sum(params.factor_weights[f] * min(1.0, max(0.0, factors.get(f) or 0.0)) for f in FACTORS)


def decay_strength(strength: float, days: float, rate: float, floor: float) -> float:
    """Strength after ``days`` of exponential decay towards ``floor`` (never raised, clamped to [0, 4])."""
    if strength <= floor or days <= 0 or rate <= 0:
        return min(STRENGTH_MAX, max(0.0, strength))
    return min(STRENGTH_MAX, floor + (strength - floor) * float((1.0 - rate) ** days))


def status_for(
    retention_value: float, strength: float, params: DynamicsParams, priority: str = "P2"
) -> Status:
    """active → weak → dormant by retention or strength thresholds (the weaker signal wins); P0 and common
    knowledge stay active."""
    if priority in EXEMPT_PRIORITIES:
        return "active"
    if retention_value < params.dormant_retention or strength < params.dormant_strength:
        return "dormant"
    if retention_value < params.weak_retention or strength < params.weak_strength:
        return "weak"
    return "active"


def should_forget(
    *,
    retention_value: float,
    strength: float,
    priority: str,
    age_days: float,
    params: DynamicsParams,
    retained: bool = False,
    backs_fact: bool = False,
    newer: float = math.inf,
    summary: bool = False,
) -> bool:
    """Soft-forget rule: below a threshold after the minimum age (counted from when graphmem recorded the
    memory) once ``newer`` (the user's memories created after its last use) reaches ``forget_min_newer``;
    P0, common knowledge, memories a governance decision retained, the statements a current fact derives
    from (``backs_fact``: "I'm allergic to peanuts" while ``allergy:peanuts`` holds) and the summaries
    consolidate wrote (the gist outlives the details it replaced) never."""
    if priority in EXEMPT_PRIORITIES or retained or backs_fact or summary:
        return False
    if age_days < params.forget_min_age_days:
        return False
    if newer < params.forget_min_newer:
        return False
    return retention_value < params.forget_retention or strength < params.forget_strength


# --- ACT-R -----------------------------------------------------------------------------------------
def actr_base_level(ages_days: Iterable[float], decay: float = 0.5) -> float:
    """ACT-R base-level activation ``ln Σ t_j^(-d)`` over the ages of past uses (days, > 0)."""
    total = sum(max(t, 1e-6) ** -decay for t in ages_days)
    return math.log(total) if total > 0 else -math.inf


def actr_base_level_approx(uses: int, lifetime_days: float, decay: float = 0.5) -> float:
    """Petrov's closed form for evenly spread uses: ``ln(n / (1 - d)) - d · ln(L)``."""
    if uses <= 0:
        return -math.inf
    return math.log(uses / (1.0 - decay)) - decay * math.log(max(lifetime_days, 1e-6))


# --- spaced repetition -----------------------------------------------------------------------------
def recall_probability(days: float, stability: float) -> float:
    return math.exp(-max(0.0, days) / stability)


def updated_stability(stability: float, days_since_review: float, params: DynamicsParams) -> float:
    """Stability after one successful recall ``days_since_review`` days after the last one."""
    r = recall_probability(days_since_review, stability)
    return min(params.max_stability_days, stability * (1.0 + params.stability_gain * (1.0 - r)))


def review_interval(stability: float, desired_retention: float) -> float:
    """Days until recall probability falls to ``desired_retention``."""
    return -stability * math.log(desired_retention)
