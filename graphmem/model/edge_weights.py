"""RELATED_TO weights derived at read time from the edge's stored anchor and coefficients, and when an edge's
weight crosses the pruning floor: the specification of ``cypher/fragments/edge_weight_now.cypher`` and of
what ``cypher/dynamics_decay_edges.cypher`` writes (``weight_rate``, ``weight_floor``, ``weight_due``).

An edge stores its base weight ``weight_base`` at its anchor time ``weight_updated_at`` (set when it is made
or reweighted; ``weight`` is written with the same value) and the daily decay rate that applies to it,
``weight_rate`` (the configured ``edge_decay``, written by the decay job the first time it sees the edge
and again only when the configuration changes). At any time ``t``::

    weight(t) = weight_base · (1 - weight_rate)^days(weight_updated_at, t)

which is exactly what the nightly job used to store on every edge (the rate applies from the anchor, as the
old rewrite did, so a changed ``edge_decay`` gives the weights the old job would have written; the base
weight, an input of memory decay, never moves with it). An edge without ``weight_rate`` (made since the last
decay run, or written by an older graphmem) reads its stored ``weight``, as before.

For a fixed rate the weight only falls, so the time it drops below ``edge_weight_floor`` has a closed form:
``weight_due`` (with ``weight_floor``, the floor it was computed for), in a relationship range index, so
the forget job reads only edges whose weight may have fallen below the floor. Every writer of a weight sets
``weight_due`` to the epoch (``DUE_NOW``): the next decay run evaluates the edge.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.model.anchors import DAY, DUE_NOW, HORIZON_DAYS, NEVER

__all__ = ["DUE_NOW", "NEVER", "EdgeState", "crossing", "evaluate", "weight_now"]


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _anchor(props: Mapping[str, Any], now: datetime) -> datetime:
    """The time the base weight holds at: weight_updated_at, else recorded_at, else ``now``."""
    found = (v for v in (props.get("weight_updated_at"), props.get("recorded_at")) if isinstance(v, datetime))
    return next(found, now)


def _seconds(value: datetime) -> float:
    """Whole epoch seconds, as Cypher's ``epochSeconds``."""
    return float(math.floor(value.timestamp()))


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))


def weight_now(props: Mapping[str, Any], now: datetime) -> float | None:
    """The weight at ``now`` from an edge's stored properties (``cypher/fragments/edge_weight_now.cypher``);
    None for an edge without any weight (each reader keeps its own default, as with the stored weight)."""
    rate = _num(props.get("weight_rate"))
    if props.get("weight_rate") is None or rate is None:
        return _num(props.get("weight"))
    base = _num(props.get("weight_base"))
    base = base if base is not None else (_num(props.get("weight")) or 0.0)
    t, since = _seconds(now), _seconds(_anchor(props, now))
    days = (t - since) / DAY if t > since else 0.0
    return float(base * (1.0 - _unit(rate)) ** days)


def crossing(base: float, since: float, rate: float, floor: float) -> float | None:
    """Epoch second from which ``base · (1 - rate)^days(since)`` is below ``floor``, or None (never)."""
    if base < floor:
        return since
    if floor <= 0 or rate <= 0:
        return None
    if rate >= 1:
        return since
    per_day = math.log(1.0 - rate)
    return None if per_day == 0 else since + DAY * math.log(floor / base) / per_day


@dataclass(frozen=True)
class EdgeState:
    """What the decay job stores on an edge it evaluates."""

    weight: Any
    weight_base: float
    weight_updated_at: datetime
    weight_rate: float
    weight_floor: float
    weight_due: datetime


def evaluate(props: Mapping[str, Any], now: datetime, rate: float, floor: float) -> EdgeState:
    """The properties the decay job leaves on a live edge (``props`` as stored) under ``edge_decay`` ``rate``
    and ``edge_weight_floor`` ``floor``: the anchor kept (or taken from the stored weight and recording: the
    migration), the coefficients, and the floor crossing (whole seconds, never late; 9999-01-01: never)."""
    t, anchor = _seconds(now), _anchor(props, now)
    stored = _num(props.get("weight"))
    base = _num(props.get("weight_base"))
    base = base if base is not None else (stored if stored is not None else 1.0)
    x = crossing(base, _seconds(anchor), rate, floor)
    due = NEVER if x is None else datetime.fromtimestamp(math.floor(min(x, t + HORIZON_DAYS * DAY)), UTC)
    return EdgeState(
        weight=base if props.get("weight_rate") is None else props.get("weight"),
        weight_base=base,
        weight_updated_at=anchor,
        weight_rate=rate,
        weight_floor=floor,
        weight_due=due,
    )


def is_due(props: Mapping[str, Any], now: datetime, rate: float, floor: float) -> bool:
    """Whether the decay job reads the edge: never evaluated, due, or its coefficients moved."""
    due = props.get("weight_due")
    return (
        not isinstance(due, datetime)
        or due <= now
        or props.get("weight_rate") != rate
        or props.get("weight_floor") != floor
    )
