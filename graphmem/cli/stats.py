"""`graphmem stats`: the dashboard's figures (counts, retention, value panel), as `GET /stats` has them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import HomeOption, JsonOption, connect, console, print_json

if TYPE_CHECKING:  # the CLI imports the dashboard only when the command runs
    from graphmem.adapters.dashboard import ValueStats


def register(app: typer.Typer) -> None:
    app.command("stats")(stats)


def stats(
    user: Annotated[str | None, typer.Option("--user", "-u", help="one tenant (default: all)")] = None,
    now: Annotated[
        str | None, typer.Option("--now", help="the clock retention is derived at, ISO 8601 (e.g. a job's)")
    ] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Memories by status and type, recalls per week with the share that got useful feedback, job outcomes."""
    from graphmem.adapters import dashboard
    from graphmem.model import validation as check

    uid, clock = None if user is None else check.user_id(user), check.aware_datetime(now, "now")
    with connect(home) as mem:
        figures = dashboard.memory_stats(mem.runtime, uid, now=clock)
    if as_json:
        print_json(figures.model_dump(mode="json"))
        return
    whose = "every tenant" if uid is None else uid
    console.print(f"[bold]{figures.total}[/] memories of {escape(whose)}", highlight=False)
    console.print(f"  by status: {_counts(figures.by_status)}", highlight=False)
    console.print(f"  by type:   {_counts(figures.by_type)}", highlight=False)
    buckets = " ".join(str(n) for n in figures.retention_histogram)
    console.print(f"  retention, 0.0-0.1 up to 0.9-1.0: {buckets}", highlight=False)
    value = figures.value
    if value is None:
        return
    if not value.recalls:
        console.print(f"no recalls recorded since {value.since:%Y-%m-%d}")
    else:
        console.print(_recalls_table(value))
    if not value.jobs:
        console.print(f"no job runs since {value.since:%Y-%m-%d}")
        return
    jobs = Table(title="job outcomes")
    jobs.add_column("job")
    jobs.add_column("outcomes")
    for job, outcomes in value.jobs.items():
        jobs.add_row(escape(job), _counts(outcomes))
    console.print(jobs)


def _counts(counts: dict[str, int]) -> str:
    """``active 4, superseded 2`` (``none`` when empty), escaped for rich."""
    return escape(", ".join(f"{k} {n}" for k, n in counts.items()) or "none")


def _recalls_table(value: ValueStats) -> Table:
    table = Table(title=f"recalls per week since {value.since:%Y-%m-%d}")
    for column in ("week", "recalls", "useful feedback", "latency ms p95", "context tokens used / dropped"):
        table.add_column(column)
    for w in value.recalls:
        p95 = "not recorded" if w.latency_ms_p95 is None else f"{w.latency_ms_p95:.0f}"
        used, dropped = w.context_tokens_used, w.context_tokens_dropped
        tokens = "not recorded" if used is None else f"{used} / {dropped or 0}"
        table.add_row(w.week, str(w.recalls), f"{w.useful} ({w.useful_share:.0%})", p95, tokens)
    return table
