"""`graphmem export`, `delete-user`, `anonymize-user` and `import` (registered on the main app by cli.py; the
import is in cli/importer.py).

Progress bars and prompts go to stderr, so ``--json`` output on stdout stays parseable.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from graphmem.cli.common import (
    HomeOption,
    JsonOption,
    YesOption,
    confirm,
    out_path,
    require_user,
    write_out,
)
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import print_json as _print_json

if TYPE_CHECKING:
    from graphmem.memory import GraphMemory

console = Console()
err_console = Console(stderr=True)

UserArgument = Annotated[str, typer.Argument(help="the tenant (user_id)")]


class ExportFormat(StrEnum):
    JSON = "json"
    JSONL = "jsonl"


def _working() -> Progress:
    """A pulsing bar for one long server-side call (its batches run inside Neo4j)."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )


# --- export / delete / anonymize -------------------------------------------------------------------
def export(
    user: UserArgument,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="write to this file (default: stdout)")
    ] = None,
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            help="json: one document, built in memory; jsonl: one record a line, streamed page by page "
            "(any size of user)",
        ),
    ] = ExportFormat.JSON,
    home: HomeOption = None,
) -> None:
    """Everything stored about a user as JSON (memories, fact history, entities, relationships, audit)."""
    target = None if out is None else out_path(out)  # before the export: a bad path is refused at once
    with _connect(home) as mem:
        if fmt is ExportFormat.JSONL:
            if target is None:
                _stream_to_stdout(mem, user)
                return
            counts = mem.users.export_to(user, target)
        else:
            data = mem.users.export(user)
            if target is None:
                _print_json(data)
                return
            write_out(target, json.dumps(data, indent=2) + "\n")
            counts = {name: len(items) for name, items in data.items() if isinstance(items, list)}
    if target is None:
        return
    err_console.print(escape(f"exported {user} to {out}"), highlight=False, soft_wrap=True)
    table = Table()
    table.add_column("collection")
    table.add_column("items", justify="right")
    for name, n in counts.items():
        if n:
            table.add_row(name, str(n))
    err_console.print(table)


def _stream_to_stdout(mem: GraphMemory, user: str) -> None:
    """The JSON Lines export on stdout as UTF-8 whatever the locale (an ASCII console cannot encode a
    memory's words), ending quietly when the reader stops reading (``| head``)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    wrapper = None if buffer is None else io.TextIOWrapper(buffer, encoding="utf-8", newline="\n")
    try:
        mem.users.export_to(user, wrapper or sys.stdout)
        (wrapper or sys.stdout).flush()
    except BrokenPipeError:  # the reader is gone: what was left unwritten goes nowhere, without a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(1) from None
    finally:
        if wrapper is not None:
            with contextlib.suppress(ValueError, OSError):
                wrapper.detach()  # stdout stays open for the rest of the process


def delete_user(
    user: UserArgument,
    yes: YesOption = False,
    actor: Annotated[str | None, typer.Option("--actor", help="who asked (kept in the audit)")] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Hard-delete every node and relationship of a user, in batches (the audit keeps a tombstone).

    Exit 4, nothing written, when nothing is stored for the user (a mistyped id, or one deleted already)."""
    with _connect(home) as mem:
        require_user(mem, user, "nothing deleted")
        confirm(f"Delete every memory, fact and edge of {user!r}? This cannot be undone", yes)
        with _working() as progress:
            progress.add_task(f"deleting {user}", total=None)
            report = mem.users.delete(user, actor=actor or "cli")
    if as_json:
        _print_json(report.model_dump(mode="json"))
        return
    table = Table(title=f"deleted {user}")
    table.add_column("label")
    table.add_column("nodes", justify="right")
    for label, n in sorted(report.nodes.items()):
        table.add_row(label or "-", str(n))
    table.add_row("[bold]total[/]", f"[bold]{report.deleted}[/]")
    console.print(table)
    console.print(
        f"{report.relationships} relationships removed, {report.audit_events_redacted} audit events redacted"
        + (f", {report.api_keys_revoked} API keys revoked" if report.api_keys_revoked else "")
    )


def anonymize_user(
    user: UserArgument,
    yes: YesOption = False,
    actor: Annotated[str | None, typer.Option("--actor", help="who asked (kept in the audit)")] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Redact a user's content and personal fields; structure, counts and recall by embedding stay.

    Exit 4, nothing written, when nothing is stored for the user (a mistyped id, or one deleted already)."""
    with _connect(home) as mem:
        require_user(mem, user, "nothing anonymized")
        confirm(f"Redact all content of {user!r}? This cannot be undone", yes)
        with _working() as progress:
            progress.add_task(f"anonymizing {user}", total=None)
            touched = mem.users.anonymize(user, actor=actor or "cli")
    if as_json:
        _print_json({"user_id": user, "anonymized": touched})
    else:
        console.print(f"anonymized [bold]{touched}[/] nodes of {user}")


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("delete-user")(delete_user)
    app.command("anonymize-user")(anonymize_user)
    from graphmem.cli.importer import import_messages  # graphmem/cli/importer.py

    app.command("import")(import_messages)
