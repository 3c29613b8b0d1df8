"""Retention and strength derived at read time from a memory's stored anchors, and when its status can next
change: the specification of ``cypher/fragments/retention_now.cypher`` and ``strength_now.cypher`` and of the
``decay_due`` the decay job writes.

The decay job does not rewrite retention and strength every night. It stores, per memory, four coefficients
(written only when they move) and keeps ``strength`` at its anchor::

    retention_scale = (1 + ln(1 + n)) · type_multiplier · semantic_importance / 5      (1 for P0/common)
    retention_rate  = λ_type · scale_prio · (1 + ρ) / (1 + σ)                            (0 for P0/common)
    strength_rate   = min(1, rate_prio · (1 + ρ) / ((1 + 0.5·w_base)(1 + σ)))
    strength_floor  = floor_prio

so that at any time ``t`` (``t_a`` days since the last access or recording, ``t_c`` days since recording,
``t_s`` days since ``max(last access, strength_updated_at, recording)``)::

    retention(t) = min(1, retention_scale · e^(-retention_rate · t_a) + 0.1 · max(0, 1 - t_c / 365))
    strength(t)  = floor + (strength - floor) · (1 - strength_rate)^t_s      (strength > floor, else strength)

which is exactly what the nightly job used to store (the forms compose). A memory without coefficients
(written by an older graphmem, or not evaluated yet) reads its stored ``retention``/``strength``: "not decayed
yet"; no stored value makes a read fail.

For fixed coefficients both values only fall, so the next status change has a time: closed form for strength,
and for retention three Newton steps on the convex ``g(t) = scale · e^(-λ t_a) + bonus(t)`` started from the
crossing that ignores the recency bonus: every step stays at or before the true crossing (a tangent of a
convex decreasing function lies below it), so ``decay_due`` is never late; at worst the job evaluates the
memory once more before its status moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.model.dynamics import EXEMPT_PRIORITIES, STRENGTH_MAX, DynamicsParams

DAY = 86400.0
YEAR = 365.0 * DAY
DUE_NOW = datetime(1970, 1, 1, tzinfo=UTC)
"""``decay_due`` of a memory whose decay inputs changed: the next decay run evaluates it (any writer of an
input sets this). A memory without ``decay_due`` (written before it existed, or outside graphmem) is
evaluated by the next run too: that first run is the migration."""
NEVER = datetime(9999, 1, 1, tzinfo=UTC)
"""``decay_due`` when no status change lies ahead (dormant, P0/common, not live, a core block)."""
HORIZON_DAYS = 36500.0
"""A status change further ahead than this is re-examined then (keeps the datetime in range)."""
NEWTON_STEPS = 3


@dataclass(frozen=True)
class Coefficients:
    retention_scale: float
    retention_rate: float
    strength_rate: float
    strength_floor: float


def _seconds(value: Any) -> float | None:
    return float(math.floor(value.timestamp())) if isinstance(value, datetime) else None


def _clock(props: Mapping[str, Any], now: datetime) -> tuple[float, float, float, float]:
    """(now, recorded, accessed, strength anchor) in whole epoch seconds, as Cypher's ``epochSeconds``."""
    t = float(math.floor(now.timestamp()))
    created = _first(_seconds(props.get("recorded_at")), _seconds(props.get("created_at")), t)
    accessed = _first(_seconds(props.get("last_accessed_at")), created)
    anchored = _first(_seconds(props.get("strength_updated_at")), created)
    return t, created, accessed, max(accessed, anchored)


def _first(*values: float | None) -> float:
    return next(v for v in values if v is not None)


def _days(since: float, t: float) -> float:
    return (t - since) / DAY if t > since else 0.0


def _num(value: Any, default: float) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _retention(scale: float, rate: float, ta: float, tc: float) -> float:
    return min(1.0, scale * math.exp(-rate * ta) + 0.1 * (0.0 if tc > 365.0 else 1.0 - tc / 365.0))


def retention_now(props: Mapping[str, Any], now: datetime) -> float:
    """Retention at ``now`` from a memory's stored properties (``cypher/fragments/retention_now.cypher``)."""
    if props.get("retention_scale") is None:
        return _num(props.get("retention"), 1.0)
    t, created, accessed, _ = _clock(props, now)
    scale, rate = _num(props["retention_scale"], 1.0), _num(props.get("retention_rate"), 0.0)
    return _retention(scale, rate, _days(accessed, t), _days(created, t))


def decayed(strength: float, floor: float, rate: float, days: float) -> float:
    if strength <= floor or days == 0 or rate <= 0:
        value = strength
    else:
        value = floor + (strength - floor) * (1.0 - min(1.0, rate)) ** days
    return min(STRENGTH_MAX, max(0.0, value))


def strength_now(props: Mapping[str, Any], now: datetime) -> float:
    """Strength at ``now`` from a memory's stored properties (``cypher/fragments/strength_now.cypher``)."""
    s = _num(props.get("strength"), 1.0)
    if props.get("strength_rate") is None:
        return min(STRENGTH_MAX, max(0.0, s))
    t, _, _, since = _clock(props, now)
    floor = _num(props.get("strength_floor"), 0.0)
    return decayed(s, floor, _num(props["strength_rate"], 0.0), _days(since, t))


def thresholds(status: str, params: DynamicsParams) -> tuple[float, float] | None:
    """The (retention, strength) thresholds of the next status change, or None (dormant: nothing ahead)."""
    if status == "active":
        return params.weak_retention, params.weak_strength
    if status == "weak":
        return params.dormant_retention, params.dormant_strength
    return None


def strength_crossing(s: float, since: float, c: Coefficients, theta: float) -> float | None:
    """Epoch second after which strength (anchored at ``s`` at ``since``) is below ``theta``, or None."""
    rate, floor = c.strength_rate, c.strength_floor
    if s <= floor or rate <= 0 or theta <= floor:
        return None
    if s < theta or rate >= 1:
        return since
    per_day = math.log(1.0 - rate)  # 0 for a rate below float precision: never, within the horizon
    return math.inf if per_day == 0 else since + DAY * math.log((theta - floor) / (s - floor)) / per_day


def _newton(x: float, c: Coefficients, created: float, accessed: float, theta: float) -> float | None:
    e = c.retention_scale * math.exp(-c.retention_rate * (x - accessed) / DAY)
    young = x - created < YEAR
    g = e + (0.1 * (1.0 - (x - created) / YEAR) if young else 0.0)
    slope = c.retention_rate * e / DAY + (0.1 / YEAR if young else 0.0)
    if g < theta:
        return x
    if slope <= 0:
        return None
    return x + (g - theta) / slope


def retention_crossing(
    t: float, created: float, accessed: float, c: Coefficients, theta: float
) -> float | None:
    """A lower bound of the epoch second retention falls below ``theta``: three Newton steps, at most 25
    minutes early over 2,000 random memories (two: up to a day)."""
    if accessed > t or created > t:
        return t  # an anchor in the future (a virtual clock): look again every run until it has passed
    scale, rate = c.retention_scale, c.retention_rate
    x: float | None
    if scale < theta:
        x = t
    elif rate > 0:
        x = max(t, accessed + DAY * math.log(scale / theta) / rate)
    else:
        return None
    for _ in range(NEWTON_STEPS):
        if x is None:
            return None
        x = _newton(x, c, created, accessed, theta)
    return x


def due(
    props: Mapping[str, Any], now: datetime, c: Coefficients, status: str, params: DynamicsParams
) -> datetime | None:
    """When the status of a live memory (its stored anchors, coefficients ``c`` and ``status`` at ``now``)
    can next change; None when it cannot (dormant, or P0/common)."""
    limits = thresholds(status, params)
    if limits is None or props.get("priority", "P2") in EXEMPT_PRIORITIES:
        return None
    t, created, accessed, since = _clock(props, now)
    s = min(STRENGTH_MAX, max(0.0, _num(props.get("strength"), 1.0)))
    found = [
        x
        for x in (
            retention_crossing(t, created, accessed, c, limits[0]),
            strength_crossing(s, since, c, limits[1]),
        )
        if x is not None
    ]
    if not found:
        return None
    return datetime.fromtimestamp(math.floor(min(min(found), t + HORIZON_DAYS * DAY)), UTC)
