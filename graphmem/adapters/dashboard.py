"""The dashboard served by ``graphmem api`` at ``/dashboard``: one static page over the JSON routes, and the
statistics it shows: counts by status and type, a retention histogram, and the value panel (recalls per week
and the share with useful feedback, recall latency and context budget where recall events record them,
memories by status and priority per week, job outcomes). ``GET /stats`` and ``graphmem stats --json`` return
the same figures."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from importlib import resources
from typing import Any

from pydantic import BaseModel, Field

from graphmem.store.records import text
from graphmem.store.runtime import Runtime

BUCKETS = 10
VALUE_WEEKS = 12


class WeekRecalls(BaseModel):
    week: str
    recalls: int
    useful: int = Field(description="recalls with useful feedback on a returned memory afterwards")
    useful_share: float
    latency_ms_mean: float | None = Field(default=None, description="null: recall events carry no latency")
    latency_ms_p95: float | None = None
    context_tokens_used: int | None = None
    context_tokens_dropped: int | None = None


class ValueStats(BaseModel):
    since: datetime
    recalls: list[WeekRecalls] = Field(default_factory=list)
    memories_by_week: dict[str, dict[str, dict[str, int]]] = Field(
        default_factory=dict, description="week -> {'status': {...}, 'priority': {...}}"
    )
    jobs: dict[str, dict[str, int]] = Field(default_factory=dict, description="job -> outcome -> runs")


class MemoryStats(BaseModel):
    total: int = 0
    by_status: dict[str, int] = Field(default_factory=dict)
    by_type: dict[str, int] = Field(default_factory=dict)
    retention_histogram: list[int] = Field(
        default_factory=lambda: [0] * BUCKETS, description="memories per retention decile, 0.0-0.1 first"
    )
    value: ValueStats | None = None


def stats_from_rows(rows: list[dict[str, Any]]) -> MemoryStats:
    """Fold (status, type, bucket, n) rows into the dashboard's counts (pure)."""
    out = MemoryStats()
    for row in rows:
        n = int(row["n"])
        status, kind = text(row["status"]), text(row["type"])  # stored: any value, counted as its text
        out.total += n
        out.by_status[status] = out.by_status.get(status, 0) + n
        out.by_type[kind] = out.by_type.get(kind, 0) + n
        out.retention_histogram[min(max(int(row["bucket"] or 0), 0), BUCKETS - 1)] += n
    return out


def value_from_rows(
    since: datetime, recalls: list[dict[str, Any]], memories: list[dict[str, Any]], jobs: list[dict[str, Any]]
) -> ValueStats:
    """Fold the value panel's rows (pure)."""
    out = ValueStats(since=since)
    for r in recalls:
        n, useful = int(r["recalls"]), int(r["useful"] or 0)
        out.recalls.append(
            WeekRecalls(
                week=r["week"],
                recalls=n,
                useful=useful,
                useful_share=round(useful / n, 4) if n else 0.0,
                latency_ms_mean=r.get("latency_ms_mean"),
                latency_ms_p95=r.get("latency_ms_p95"),
                context_tokens_used=r.get("context_tokens_used"),
                context_tokens_dropped=r.get("context_tokens_dropped"),
            )
        )
    for m in memories:
        week = out.memories_by_week.setdefault(m["week"], {"status": {}, "priority": {}})
        for axis in ("status", "priority"):
            value = text(m[axis])
            week[axis][value] = week[axis].get(value, 0) + int(m["n"])
    for j in jobs:
        outcomes = out.jobs.setdefault(text(j["job"]), {})
        outcomes[text(j["status"])] = outcomes.get(text(j["status"]), 0) + int(j["n"])
    return out


def value_stats(
    rt: Runtime, user_id: str | None, *, weeks: int = VALUE_WEEKS, now: datetime | None = None
) -> ValueStats:
    since = (now or datetime.now(UTC)) - timedelta(weeks=weeks)
    return value_from_rows(
        since,
        rt.store.read("stats_recalls_weekly", user_id=user_id, since=since),
        rt.store.read("stats_memories_weekly", user_id=user_id, since=since),
        rt.store.read("stats_jobs", user_id=user_id, since=since),
    )


def memory_stats(rt: Runtime, user_id: str | None, *, now: datetime | None = None) -> MemoryStats:
    """The dashboard's figures: counts, retention histogram and the value panel, at ``now`` (default: the
    wall clock; a virtual clock such as the one jobs ran with shows the retention derived at it)."""
    out = stats_from_rows(rt.store.read("memory_stats", user_id=user_id, now=now))
    out.value = value_stats(rt, user_id, now=now)
    return out


def page() -> str:
    """The page (``graphmem/data/dashboard.html``): it asks for the API key, then reads the JSON routes."""
    return resources.files("graphmem.data").joinpath("dashboard.html").read_text(encoding="utf-8")
