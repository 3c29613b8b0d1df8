"""`graphmem jobs ...`, `graphmem worker` and `graphmem health` (registered on the main app by cli.py)."""

from __future__ import annotations

import json
import signal
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import App, HomeOption, JsonOption, YesOption, confirm, require_user
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import fail as _fail
from graphmem.cli.common import warm as _warm
from graphmem.errors import GraphMemError

if TYPE_CHECKING:
    from graphmem.automation.control import JobStatus

jobs_app = App(
    help="Maintenance jobs: list, run, enable, disable, schedule, runs, reconcile, restore.",
    no_args_is_help=True,
)
console = Console()
err_console = Console(stderr=True)
NO_WORKER_HINT = (
    "no worker is running, so scheduled jobs do not run (state `missing`): start one with "
    "`graphmem worker` (same --home / NEO4J_URI as the API), or run a job now with `graphmem jobs run <job>`"
)

FORGET_AT_CLOCK = (
    "note: forget judges memories by what decay last computed and does not decay them itself: to see what a "
    "day in the future forgets, run `jobs run decay --now` at that clock first (with --dry-run, forget alone "
    "counts what forget alone would change)"
)


def _print_statuses(statuses: list[JobStatus], as_json: bool) -> None:
    if as_json:
        print(json.dumps([s.model_dump(mode="json") for s in statuses], indent=2))
        return
    table = Table(title="jobs")
    for column in ("job", "state", "enabled", "schedule", "last run"):
        table.add_column(column)
    for s in statuses:
        last = f"{s.last_run.status} {s.last_run.started_at:%Y-%m-%d %H:%M}" if s.last_run else "-"
        table.add_row(s.name, s.state, "yes" if s.enabled else "no", s.schedule, last)
    console.print(table)
    if any(s.state == "missing" for s in statuses):
        console.print(NO_WORKER_HINT)


@jobs_app.command("list")
def jobs_list(home: HomeOption = None, as_json: JsonOption = False) -> None:
    """Every job with its state (scheduled, disabled, missing, drifted), schedule and last run."""
    with _connect(home) as mem:
        _print_statuses(mem.jobs.list(), as_json)


@jobs_app.command("run")
def jobs_run(
    name: str,
    user: Annotated[str | None, typer.Option("--user", "-u", help="one tenant (default: all)")] = None,
    now: Annotated[
        str | None,
        typer.Option(
            "--now",
            help="virtual clock, ISO 8601 with offset: the job changes the stored data as if that time had "
            "come (a future time asks for confirmation unless --yes; --dry-run writes nothing)",
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="report what the job would change; write nothing")
    ] = False,
    yes: YesOption = False,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Run one job now (`--dry-run`: count what it would change, write nothing).

    Exit 4, nothing run or recorded, when `--user` names a user of whom nothing is stored."""
    try:
        clock = datetime.fromisoformat(now) if now else None
        with _connect(home) as mem:
            if user is not None:
                require_user(mem, user, f"{name} not run")
            if clock is not None and not dry_run:
                _confirm_future(name, user, clock, yes)
            if clock is not None and name == "forget":
                err_console.print(FORGET_AT_CLOCK, highlight=False, soft_wrap=True)
            run = mem.jobs.run(name, user_id=user, now=clock, dry_run=dry_run)
    except GraphMemError as exc:
        raise _fail(exc) from exc
    except ValueError as exc:
        err_console.print(f"[bold red]error:[/] --now: {escape(str(exc))}", soft_wrap=True)  # one line
        raise typer.Exit(code=1) from exc
    if as_json:
        print(run.model_dump_json(indent=2))
    else:
        counts, error = escape(json.dumps(run.counts)), escape(run.error or "")
        console.print(f"{run.job}: [bold]{run.status}[/] {counts} {error}")
    if run.status not in ("success", "dry_run"):
        raise typer.Exit(code=1)


def _confirm_future(name: str, user: str | None, clock: datetime, yes: bool) -> None:
    """A clock ahead of the present writes real data as if that day had come (decay weakens memories, forget
    drops them): say so and ask, unless ``--yes``. A clock without an offset is UTC, as the job reads it."""
    from graphmem.automation.config import JOB_NAMES

    aware = clock if clock.tzinfo is not None else clock.replace(tzinfo=UTC)
    ahead = aware - datetime.now(UTC)
    if ahead <= timedelta(0) or name not in JOB_NAMES:  # an unknown job: the run refuses it, unasked
        return
    whose = f"the data of {user!r}" if user is not None else "the data of every user"
    when = aware.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    confirm(
        f"--now {when} is {ahead.days} days in the future: `{name}` will change {whose} as if that time had "
        "come (decay weakens memories, forget drops them), and this cannot be undone (--dry-run counts what "
        "it would change and writes nothing). Run it?",
        yes,
    )


def _toggle(name: str, enabled: bool, home: Path | None) -> None:
    with _connect(home) as mem:
        status = mem.jobs.enable(name) if enabled else mem.jobs.disable(name)
    console.print(f"{status.name}: {'enabled' if status.enabled else 'disabled'} ({status.state})")


@jobs_app.command("enable")
def jobs_enable(name: str, home: HomeOption = None) -> None:
    """Enable a job in the stored config."""
    _toggle(name, True, home)


@jobs_app.command("disable")
def jobs_disable(name: str, home: HomeOption = None) -> None:
    """Disable a job in the stored config."""
    _toggle(name, False, home)


@jobs_app.command("schedule")
def jobs_schedule(
    name: str,
    spec: Annotated[
        str,
        typer.Argument(
            help="'every N[s|m|h|d]' or a five-field crontab, UTC (quote it: '30 2 * * 1-5')",
            metavar="SCHEDULE",
        ),
    ],
    home: HomeOption = None,
) -> None:
    """Set a job's schedule in the stored config (a running worker applies it within its poll interval)."""
    with _connect(home) as mem:
        config = mem.automation.get_config()
        mem.automation.set_config(config.with_job(name, schedule=spec), by="jobs")
        status = mem.jobs.status(name)
    state = status.state if status.enabled else f"disabled: `graphmem jobs enable {status.name}` runs it"
    console.print(f"{status.name}: {escape(status.schedule)} ({state})", highlight=False)


@jobs_app.command("runs")
def jobs_runs(
    job: Annotated[str | None, typer.Argument(help="one job (default: every job)")] = None,
    user: Annotated[str | None, typer.Option("--user", "-u", help="the runs for one tenant")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="how many, the latest first")] = 20,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """The latest job runs, with their status, counts and error (the run history)."""
    with _connect(home) as mem:
        runs = mem.automation.runs(limit, job=job, user_id=user)  # an unknown job: ValidationError
    if as_json:
        print(json.dumps([r.model_dump(mode="json") for r in runs], indent=2))
        return
    if not runs:
        console.print("no runs recorded" + (f" for {escape(repr(user))}" if user else ""), highlight=False)
        return
    table = Table(title="job runs, the latest first" + (f" ({escape(user)})" if user else ""))
    for column in ("started (UTC)", "job", "status", *(() if user else ("user",)), "trigger"):
        table.add_column(column, overflow="fold")
    table.add_column("changed / error", ratio=1, overflow="fold")
    for r in runs:
        changed = " ".join(f"{k}={v}" for k, v in r.counts.items() if v not in (0, False, None, "", [], {}))
        detail = r.error if r.status in ("failed", "interrupted") and r.error else changed
        who = () if user else (escape(r.user_id or "(all)"),)
        when = f"{r.started_at:%Y-%m-%d %H:%M}"
        table.add_row(when, r.job, r.status, *who, r.trigger, escape(detail or "-"))
    console.print(table)


@jobs_app.command("reconcile")
def jobs_reconcile(home: HomeOption = None, as_json: JsonOption = False) -> None:
    """Compare schedulers with the stored config (a running worker applies it within its poll interval)."""
    with _connect(home) as mem:
        _print_statuses(mem.jobs.reconcile(), as_json)


def worker(home: HomeOption = None) -> None:
    """Run the enabled jobs on their schedules until interrupted (re-reads the stored config)."""
    stop = threading.Event()

    def _stop(*_: Any) -> None:
        if stop.is_set():  # asked twice: leave the running job (its slot is retaken after its lease)
            raise KeyboardInterrupt
        stop.set()
        err_console.print("worker stopping: a running job ends first (Ctrl-C again to abandon it)")

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    with _connect(home) as mem:
        _warm(mem)
        console.print("worker running; Ctrl-C to stop")
        mem.jobs.work(stop)
    console.print("worker stopped")


def health(home: HomeOption = None, as_json: JsonOption = False) -> None:
    """Healthy or degraded, with reasons (exit code 2 when degraded)."""
    with _connect(home) as mem:
        report = mem.automation.health()
    if as_json:
        print(report.model_dump_json(indent=2))
    else:
        colour = "green" if report.status == "healthy" else "yellow"
        console.print(f"[{colour}]{report.status}[/] {', '.join(report.reasons)}")
        if "scheduler_not_running" in report.reasons:
            console.print(NO_WORKER_HINT)
        absent = [name for name in ("apoc", "gds") if not report.details.get("plugins", {}).get(name, True)]
        if absent:  # optional: they degrade nothing (docs/operations.md)
            console.print(f"[dim]optional plugins not installed: {', '.join(absent)} (graphmem doctor)[/]")
    if report.status != "healthy":
        raise typer.Exit(code=2)


@jobs_app.command("restore")
def jobs_restore(
    memory_ids: Annotated[list[str], typer.Argument(help="one or more forgotten memory ids")],
    user: Annotated[str, typer.Option("--user", "-u", help="the tenant (user_id)")],
    home: HomeOption = None,
) -> None:
    """Bring soft-forgotten memories back (exit 1 when an id is not a forgotten memory of the user: the
    message says which ids were restored and why each other was not)."""
    with _connect(home) as mem:
        restored = mem.jobs.restore(memory_ids, user_id=user)
    console.print(f"restored {len(restored)}: {', '.join(restored)}")


def register(app: typer.Typer) -> None:
    """Add the jobs sub-app and the worker and health commands to the main app."""
    app.add_typer(jobs_app, name="jobs")
    app.command("worker")(worker)
    app.command("health")(health)
