"""What a search returns (``graphmem.retrieval.search.search``): the ranked hits with why each ranked where
it did, and the competitors recall's retrieval-induced forgetting weakens."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RankedHit:
    """One ranked memory: its row, final score, confidence, and why (sources, path, stage scores)."""

    id: str
    memory: dict[str, Any]
    score: float
    confidence: float
    sources: dict[str, int]
    path: tuple[str, ...]
    edge_types: tuple[str, ...]
    components: dict[str, float]
    # a summary: the replaced sources it was found by, the one with the larger share of its score first
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ranked:
    """What a search found: the top ``k`` hits, the next ``k`` (recall's competitors), and how."""

    hits: list[RankedHit]
    competitors: list[RankedHit]
    level: str  # "hybrid" | "vector" | "fulltext" | "substring" | "none"
    fusion: str  # the score the pool was ranked by: "linear" (fusion of both) or the one source's
    pool_size: int
    graph_size: int
    stages: list[str] = field(default_factory=list)
    relevance: dict[str, float] = field(default_factory=dict)  # each candidate's own relevance (the cue's)
    query_vector: list[float] | None = None  # the vector the pool was searched with (None: full text only)
