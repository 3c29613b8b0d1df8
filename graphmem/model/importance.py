"""Initial scores of a memory at formation (pure).

Importance blends five factors, each in [0, 1]:

- base activation: the caller's importance (0.5 when not given);
- access frequency: ``log1p(access_count) / log1p(10)``, capped at 1 (0 for a new memory);
- supporting facts: how many facts the memory states, ``min(1, n / 2)``;
- type weight: preference 0.9 > procedural 0.75 > fact (semantic) 0.6 > episodic 0.4;
- recency: ``exp(-age_days / 30)`` of the memory's world time against now.

A memory the user marked important (priority P0 or common, tag ``important``, or metadata
``{"important": true}``) gets a boost. Retention starts at 1.0; priority defaults by type.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from graphmem.models import MemoryType, Priority

TYPE_WEIGHT: dict[MemoryType, float] = {
    MemoryType.PREFERENCE: 0.9,
    MemoryType.PROCEDURAL: 0.75,
    MemoryType.SEMANTIC: 0.6,
    MemoryType.EPISODIC: 0.4,
}
DEFAULT_PRIORITY: dict[MemoryType, Priority] = {
    MemoryType.EPISODIC: Priority.P2,
    MemoryType.SEMANTIC: Priority.P1,
    MemoryType.PROCEDURAL: Priority.P1,
    MemoryType.PREFERENCE: Priority.P1,
}
WEIGHTS = {"base": 0.3, "frequency": 0.1, "facts": 0.15, "type": 0.3, "recency": 0.15}
MARKED_BOOST = 0.2
RECENCY_DAYS = 30.0


@dataclass(frozen=True)
class Factors:
    base: float
    frequency: float
    facts: float
    type: float
    recency: float


def factors(
    *,
    base: float,
    access_count: int,
    n_facts: int,
    memory_type: MemoryType,
    occurred_at: datetime,
    now: datetime,
) -> Factors:
    age_days = max(0.0, (now - occurred_at).total_seconds() / 86_400)
    return Factors(
        base=min(1.0, max(0.0, base)),
        frequency=min(1.0, math.log1p(max(0, access_count)) / math.log1p(10)),
        facts=min(1.0, n_facts / 2),
        type=TYPE_WEIGHT[memory_type],
        recency=math.exp(-age_days / RECENCY_DAYS),
    )


def importance(f: Factors, *, marked: bool = False) -> float:
    score = (
        WEIGHTS["base"] * f.base
        + WEIGHTS["frequency"] * f.frequency
        + WEIGHTS["facts"] * f.facts
        + WEIGHTS["type"] * f.type
        + WEIGHTS["recency"] * f.recency
    )
    return round(min(1.0, score + (MARKED_BOOST if marked else 0.0)), 4)


def is_marked(priority: Priority | None, tags: list[str], metadata: dict[str, object]) -> bool:
    return (
        priority in (Priority.P0, Priority.COMMON)
        or "important" in {t.lower() for t in tags}
        or metadata.get("important") is True
    )
