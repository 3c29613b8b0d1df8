"""What the decay and forget jobs do to one memory: the specification the set-based Cypher must match.

:mod:`graphmem.model.dynamics` holds the formulas; this module composes them into the per-memory outcome of
a job run at ``now`` (the jobs' Cypher evaluates the same composition set-based, and
``tests/test_dynamics_spec.py`` runs the jobs on the real server over generated memories and compares every
resulting value with these functions). The decay job evaluates only due memories and stores coefficients;
retention and strength are derived from them at read time (:mod:`graphmem.model.anchors`).

Ages count from the memory's *anchor*: when graphmem recorded it (``recorded_at``, falling back to
``created_at``), never the time of the message it came from (``occurred_at``), so history imported with old
timestamps starts fresh and gets the same grace period as a new memory.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import datetime

from graphmem.model import anchors
from graphmem.model.anchors import Coefficients
from graphmem.model.dynamics import (
    EXEMPT_PRIORITIES,
    LIVE_STATUSES,
    DynamicsParams,
    effective_rate,
    salience,
    semantic_importance,
    should_forget,
    status_for,
)
from graphmem.model.heuristics import interference


@dataclass(frozen=True)
class MemoryState:
    """The stored properties the decay and forget jobs read (defaults are the Cypher's ``coalesce``)."""

    created_at: datetime
    recorded_at: datetime | None = None
    memory_type: str = "episodic"
    priority: str = "P2"
    status: str = "active"
    strength: float = 1.0
    retention: float = 1.0
    access_count: int = 0
    last_accessed_at: datetime | None = None
    strength_updated_at: datetime | None = None
    association_weights: tuple[float, ...] = ()
    factors: dict[str, float] = field(default_factory=dict)
    rivalry: float = 0.0
    core_block: bool = False
    retained: bool = False
    backs_fact: bool = False
    """A current fact derives from it, or from a memory merged into it (its statement is the evidence for what
    is known now): never forgotten by the forget job, however long the user stays away, nor deleted
    (``cypher/fragments/backs_fact.cypher``)."""
    forgotten_at: datetime | None = None
    summarized_by: str | None = None
    summary: bool = False
    """A summary consolidate wrote (``is_summary``): the gist of the memories it replaced, which decay never
    forgets (capacity forgetting may take it); no new learning, so it displaces nothing."""
    stored: Coefficients | None = None
    """The coefficients the decay job stored last time (None: never evaluated, or written by an older
    graphmem)."""
    decay_due: datetime | None = None

    @property
    def anchor(self) -> datetime:
        """When graphmem recorded the memory: the origin of every age the jobs use."""
        return self.recorded_at or self.created_at

    @property
    def used(self) -> datetime:
        """Its last use: the later of its last access and its anchor."""
        accessed = self.last_accessed_at
        return accessed if accessed is not None and accessed > self.anchor else self.anchor


def newer_count(state: MemoryState, tenant: Iterable[MemoryState], now: datetime) -> int:
    """How many of the user's memories (``tenant``: every stored one, forgotten ones too) graphmem created
    after ``state``'s last use and by ``now``, summaries left out: what has come since, which decay's
    forgetting needs (``DynamicsParams.forget_min_newer``) before it takes a memory."""
    return sum(1 for x in tenant if not x.summary and state.used < x.created_at <= now)


@dataclass(frozen=True)
class Decayed:
    retention: float
    strength: float
    status: str
    strength_moved: bool
    """Whether the job re-anchors strength (stores ``strength`` at ``now`` and ``strength_updated_at = now``):
    when the coefficients moved and the new ones would give another strength now from the old anchor (else
    the new rate would apply retroactively)."""
    coefficients: Coefficients | None = None
    due: datetime | None = None


def coefficients(state: MemoryState, params: DynamicsParams) -> Coefficients:
    """The four stored decay coefficients of a memory (graphmem.model.anchors)."""
    weights = state.association_weights
    mean = sum(weights) / len(weights) if weights else 0.0
    sal = salience(state.factors, params)
    rate = effective_rate(
        params.strength_decay[state.priority], mean, params.association_slowdown, sal, state.rivalry
    )
    floor = params.strength_floor[state.priority]
    if state.priority in EXEMPT_PRIORITIES:
        return Coefficients(1.0, 0.0, rate, floor)
    lam = (
        params.time_decay[state.memory_type]
        * params.priority_time_scale[state.priority]
        * interference(state.rivalry)
        / (1.0 + sal)
    )
    scale = (
        (1.0 + math.log(1 + max(0, state.access_count)))
        * params.type_multiplier[state.memory_type]
        * semantic_importance(len(weights))
        / 5.0
    )
    return Coefficients(scale, lam, rate, floor)


def stored(state: MemoryState) -> dict[str, object]:
    """The node properties the anchors read (graphmem.model.anchors) for this state."""
    return {
        "recorded_at": state.recorded_at,
        "created_at": state.created_at,
        "last_accessed_at": state.last_accessed_at,
        "strength_updated_at": state.strength_updated_at,
        "strength": state.strength,
        "retention": state.retention,
        "priority": state.priority,
        **({} if state.stored is None else asdict(state.stored)),
    }


def decay(state: MemoryState, now: datetime, params: DynamicsParams) -> Decayed | None:
    """The decay job's outcome for one memory it evaluates (``decay_due`` at most ``now``); ``None`` when the
    job leaves it alone (not live, or a pinned core block). Retention is derived from the new coefficients;
    strength is decayed from its anchor by the stored coefficients (the new ones when there are
    none yet), and re-anchored at ``now`` when the coefficients moved."""
    if state.status not in LIVE_STATUSES or state.core_block:
        return None
    new = coefficients(state, params)
    props = stored(state)
    strength = anchors.strength_now(props if state.stored else {**props, **asdict(new)}, now)
    moved = state.stored != new
    reanchor = moved and anchors.strength_now({**props, **asdict(new)}, now) != strength
    after = {**props, **asdict(new)}
    if reanchor:
        after.update(strength=strength, strength_updated_at=now)
    value = anchors.retention_now(after, now)
    if state.priority in EXEMPT_PRIORITIES:
        value = 1.0
    status = status_for(value, strength, params, state.priority)
    return Decayed(
        retention=value,
        strength=strength,
        status=status,
        strength_moved=reanchor,
        coefficients=new,
        due=anchors.due(after, now, new, status, params),
    )


def forgets(state: MemoryState, now: datetime, params: DynamicsParams, newer: int) -> bool:
    """Whether the forget job soft-forgets this memory (from its retention and strength derived at ``now``,
    graphmem.model.anchors, which the caller puts in ``state``; ``newer``: :func:`newer_count` over the user's
    memories). A memory that is not dormant and not due (``decay_due`` ahead) is above the dormant thresholds
    until then, which are at least forget's, so it is not read: the job skips it before deriving anything."""
    if state.status not in LIVE_STATUSES:
        return False
    if (
        state.status != "dormant"
        and state.decay_due is not None
        and state.decay_due > now
        and not state.core_block
    ):
        return False  # core blocks: decay never evaluates them, so their decay_due says nothing
    return should_forget(
        retention_value=state.retention,
        strength=state.strength,
        priority=state.priority,
        age_days=(now - state.anchor).total_seconds() / 86400.0,
        params=params,
        retained=state.retained,
        backs_fact=state.backs_fact,
        newer=newer,
        summary=state.summary,
    )


PRIORITY_WEIGHT = {"common": 100.0, "P0": 100.0, "P1": 3.0, "P2": 2.0, "P3": 1.0}
"""Capacity forgetting removes the lowest strength × this × (1 + uses) first."""


def capacity_candidate(state: MemoryState) -> bool:
    """Whether capacity forgetting may take this memory (live, not P0/common, not retained, backing no
    current fact)."""
    return (
        state.status in LIVE_STATUSES
        and state.priority not in EXEMPT_PRIORITIES
        and not state.retained
        and not state.backs_fact
    )


def capacity_key(state: MemoryState) -> float:
    """Capacity forgetting takes the lowest keys first (ties: the older memory first)."""
    return state.strength * PRIORITY_WEIGHT[state.priority] * (1 + state.access_count)


def capacity_victims(states: list[MemoryState], params: DynamicsParams) -> int:
    """How many memories capacity forgetting takes from one user (0 when there is no cap)."""
    if params.capacity_per_user <= 0:
        return 0
    live = sum(1 for s in states if s.status in LIVE_STATUSES)
    return min(max(0, live - params.capacity_per_user), sum(1 for s in states if capacity_candidate(s)))


def hard_deletes(state: MemoryState, now: datetime, params: DynamicsParams) -> bool:
    """Whether the forget job deletes this memory for good (forgotten past the grace period; never one
    retained, a source a summary replaced, or the evidence of a current fact)."""
    return (
        state.status == "forgotten"
        and not state.retained
        and not state.backs_fact
        and state.summarized_by is None
        and state.forgotten_at is not None
        and (now - state.forgotten_at).total_seconds() >= params.hard_delete_grace_days * 86400.0
    )
