"""`graphmem snapshot | diff | audit`: a user's graph as it was, what changed between two times, and who
changed what (``mem.temporal``; registered on the main app by cli/main.py). `graphmem timeline` is in
cli/memory.py."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import (
    HomeOption,
    JsonOption,
    KnownAtOption,
    UserOption,
    id_column,
    out_path,
    write_out,
)
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import print_json as _print_json

console = Console()

AUDIT_PAGE = 50
"""Events `graphmem audit` shows when not told how many."""


def snapshot(
    user: UserOption,
    as_of: Annotated[
        datetime, typer.Option("--as-of", help="valid time: the graph as it was then (ISO date or date-time)")
    ],
    known_at: KnownAtOption = None,
    out: Annotated[Path | None, typer.Option("--out", help="write the whole snapshot here as JSON")] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """A user's nodes and edges valid at --as-of, as recorded by --known-at (default: now): counts by label
    and edge type, or the whole snapshot with --json / --out (docs/temporal.md)."""
    if out is not None:
        out_path(out)  # before the snapshot is read: a bad path is refused at once
    with _connect(home) as mem:
        snap = mem.temporal.snapshot(user, as_of=as_of, known_at=known_at)
    if out is not None:
        write_out(out, snap.to_json())  # UTF-8 whatever the locale
    if as_json:
        _print_json(json.loads(snap.to_json()))
        return
    table = Table(
        title=f"{escape(user)} at {snap.as_of:%Y-%m-%d %H:%M} as known at {snap.known_at:%Y-%m-%d %H:%M}"
    )
    table.add_column("node label / edge type")
    table.add_column("count", justify="right")
    for label, n in sorted(Counter(node.label for node in snap.nodes).items()):
        table.add_row(label, str(n))
    for kind, n in sorted(Counter(edge.type for edge in snap.edges).items()):
        table.add_row(f"-[{kind}]->", str(n))
    console.print(table)
    if out is not None:
        console.print(
            f"[dim]{len(snap.nodes)} nodes and {len(snap.edges)} edges written to {escape(str(out))}[/]"
        )


def diff(
    user: UserOption,
    t1: Annotated[datetime, typer.Argument(help="the earlier valid time (ISO date or date-time)")],
    t2: Annotated[datetime, typer.Argument(help="the later valid time")],
    known_at: KnownAtOption = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """What was added, closed or changed in a user's graph between valid times T1 and T2, both read as
    recorded by --known-at (default: now): counts, and every fact whose value changed."""
    with _connect(home) as mem:
        change = mem.temporal.diff(user, t1, t2, known_at=known_at)
    if as_json:
        _print_json(json.loads(change.to_json()))
        return
    counts = Table(title=f"{escape(user)}: {change.t1:%Y-%m-%d %H:%M} -> {change.t2:%Y-%m-%d %H:%M}")
    for column in ("", "added", "closed", "changed"):
        counts.add_column(column, justify="right" if column else "left")
    counts.add_row(
        "nodes", str(len(change.added_nodes)), str(len(change.closed_nodes)), str(len(change.changed_nodes))
    )
    counts.add_row("edges", str(len(change.added_edges)), str(len(change.closed_edges)), "-")
    console.print(counts)
    if change.changed_facts:
        facts = Table(title="facts")
        for column in ("key", "before", "after"):
            facts.add_column(column)
        for f in change.changed_facts:
            facts.add_row(escape(f.key), escape(f.before or "-"), escape(f.after or "-"))
        console.print(facts)


def audit(
    user: UserOption,
    since: Annotated[datetime | None, typer.Option("--since", help="from then on (inclusive)")] = None,
    until: Annotated[datetime | None, typer.Option("--until", help="up to then (inclusive)")] = None,
    target: Annotated[str | None, typer.Option("--target", help="only events about this id")] = None,
    after: Annotated[
        str | None, typer.Option("--after", help="the page after this event id (the last one shown)")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="events per page (1 to 1,000)")] = AUDIT_PAGE,
    newest: Annotated[bool, typer.Option("--newest", help="latest first (what happened lately)")] = False,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Who changed what in a user's memory, oldest first (--newest: latest first), a page at a time (ids
    and counts, never content; a deleted user's tombstone events too)."""
    with _connect(home) as mem:
        events = mem.temporal.audit_log(
            user_id=user,
            target_id=target,
            since=since,
            until=until,
            after=after,
            limit=limit,
            newest_first=newest,
        )
    if as_json:
        _print_json([e.model_dump(mode="json") for e in events])
        return
    table = Table(title=f"audit log of {escape(user)}")
    for column in ("at (UTC)", "action", "actor", "targets", "details"):
        table.add_column(column, overflow="fold" if column == "targets" else "ellipsis")  # ids: never cut
    id_column(table, (e.id for e in events))  # whole: `--after ID` takes it
    for e in events:
        targets = ", ".join(e.target_ids[:3]) + (
            f" (+{len(e.target_ids) - 3})" if len(e.target_ids) > 3 else ""
        )
        details = json.dumps(e.details, sort_keys=True) if e.details else ""
        table.add_row(
            f"{e.at:%Y-%m-%d %H:%M:%S}", e.action, escape(e.actor), escape(targets), escape(details), e.id
        )
    console.print(table)
    if len(events) == limit:
        order = " --newest" if newest else ""
        hint = f"more: graphmem audit -u {user}{order} --after {events[-1].id}"
        console.print(f"[dim]{escape(hint)}[/]", soft_wrap=True, highlight=False)  # one line: copyable


def register(app: typer.Typer) -> None:
    app.command("snapshot")(snapshot)
    app.command("diff")(diff)
    app.command("audit")(audit)
