"""The dashboard served by ``graphmem api`` at ``/dashboard``: one static page over the JSON routes, and the
memory statistics it shows (counts by status and type, a retention histogram)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from pydantic import BaseModel, Field

from graphmem.store.runtime import Runtime

BUCKETS = 10


class MemoryStats(BaseModel):
    total: int = 0
    by_status: dict[str, int] = Field(default_factory=dict)
    by_type: dict[str, int] = Field(default_factory=dict)
    retention_histogram: list[int] = Field(
        default_factory=lambda: [0] * BUCKETS, description="memories per retention decile, 0.0-0.1 first"
    )


def stats_from_rows(rows: list[dict[str, Any]]) -> MemoryStats:
    """Fold (status, type, bucket, n) rows into the dashboard's counts (pure)."""
    out = MemoryStats()
    for row in rows:
        n = int(row["n"])
        out.total += n
        out.by_status[row["status"]] = out.by_status.get(row["status"], 0) + n
        out.by_type[row["type"]] = out.by_type.get(row["type"], 0) + n
        out.retention_histogram[min(max(int(row["bucket"]), 0), BUCKETS - 1)] += n
    return out


def memory_stats(rt: Runtime, user_id: str | None) -> MemoryStats:
    return stats_from_rows(rt.store.read("memory_stats", user_id=user_id))


def page() -> str:
    """The page (``graphmem/data/dashboard.html``): it asks for the API key, then reads the JSON routes."""
    return resources.files("graphmem.data").joinpath("dashboard.html").read_text(encoding="utf-8")
