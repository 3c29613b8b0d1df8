"""`graphmem export`, `delete-user`, `anonymize-user` and `import` (registered on the main app by cli.py).

Progress bars and prompts go to stderr, so ``--json`` output on stdout stays parseable.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from graphmem.cli.common import (
    HomeOption,
    JsonOption,
    UserOption,
    YesOption,
    confirm,
    fail,
    out_path,
    require_user,
    write_out,
)
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import print_json as _print_json
from graphmem.cli.common import settings_for as _settings
from graphmem.errors import GraphMemError, ValidationError

if TYPE_CHECKING:
    from graphmem.memory import GraphMemory

console = Console()
err_console = Console(stderr=True)

UserArgument = Annotated[str, typer.Argument(help="the tenant (user_id)")]


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
    home: HomeOption = None,
) -> None:
    """Everything stored about a user as JSON (memories, fact history, entities, relationships, audit)."""
    target = None if out is None else out_path(out)  # before the export: a bad path is refused at once
    with _connect(home) as mem:
        data = mem.users.export(user)
    if target is None:
        _print_json(data)
        return
    write_out(target, json.dumps(data, indent=2) + "\n")
    err_console.print(escape(f"exported {user} to {out}"), highlight=False, soft_wrap=True)
    table = Table()
    table.add_column("collection")
    table.add_column("items", justify="right")
    for name, items in data.items():
        if isinstance(items, list) and items:
            table.add_row(name, str(len(items)))
    err_console.print(table)


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


# --- import ----------------------------------------------------------------------------------------
@dataclass
class Batch:
    """Consecutive messages of one session, stored by one ``add_messages`` call."""

    session_id: str
    messages: list[Any] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


def plan_import(lines: Iterable[str], *, session_id: str | None, batch: int) -> list[Batch]:
    """JSONL lines to batches of at most ``batch`` consecutive messages of one session (pure).

    A line holds a message (``{role, content, timestamp?, name?, metadata?, session_id?}`` or a string); its
    ``session_id`` overrides the default; blank lines are skipped; a bad line is a ValidationError naming it.
    """
    from graphmem.config import MAX_BATCH
    from graphmem.model import validation as check

    if not 1 <= batch <= MAX_BATCH:
        raise ValidationError("batch", f"must be between 1 and {MAX_BATCH}")
    out: list[Batch] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"line {number}", f"is not JSON ({exc.msg})") from exc
        except (ValueError, RecursionError) as exc:  # nested too deep, an integer of too many digits
            raise ValidationError(f"line {number}", f"is not JSON graphmem can read ({exc})") from exc
        session = session_id
        if isinstance(message, dict) and "session_id" in message:
            message = dict(message)
            session = message.pop("session_id")
        if not isinstance(session, str) or not session.strip():
            raise ValidationError(f"line {number}", "has no session_id (add one, or pass --session)")
        try:  # as add_messages checks it, before any batch is written
            check.identifier(session, "session_id")
        except ValidationError as exc:
            raise ValidationError(f"line {number}", f"session_id {exc.message}") from exc
        if not out or out[-1].session_id != session or len(out[-1].messages) >= batch:
            out.append(Batch(session))
        out[-1].messages.append(message)
        out[-1].lines.append(number)
    return out


def _checked_batches(raw: bytes, session: str | None, batch: int, max_chars: int) -> list[Batch]:
    """The file's batches, every line checked as add_messages would check it (line numbers in errors)."""
    from graphmem.model.messages import normalize

    # JSONL lines end at a newline only: splitlines() would also split text at U+2028, U+0085, ...; a byte
    # order mark (Windows editors write one) is not part of the first line
    body = raw.removeprefix(b"\xef\xbb\xbf")  # offsets in an error count from the first line's start
    try:
        lines = body.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        line = body[: exc.start].count(b"\n") + 1
        raise ValidationError(
            f"line {line}", f"is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from exc
    batches = plan_import(lines, session_id=session, batch=batch)
    for b in batches:
        for line, message in zip(b.lines, b.messages, strict=True):
            try:
                normalize(message, line, max_chars=max_chars)
            except ValidationError as exc:
                where = exc.field.partition(".")[2] or "message"
                raise ValidationError(f"line {line}", f"{where} {exc.message}") from exc
    return batches


def import_messages(
    file: Annotated[Path, typer.Argument(help="JSONL: one message per line", exists=True, dir_okay=False)],
    user: UserOption,
    session: Annotated[
        str | None, typer.Option("--session", "-s", help="session of lines without a session_id")
    ] = None,
    batch: Annotated[
        int,
        typer.Option(
            "--batch", help="messages per add_messages call: embedded together, written in one transaction"
        ),
    ] = 1000,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Ingest a JSONL file of messages (one per line) through add_messages, with a progress bar.

    Every line is checked before anything is written; re-running the same file stores nothing twice.
    """
    from graphmem.model import validation as check

    max_chars = _settings(home).max_content_chars
    raw = file.read_bytes()
    try:
        check.user_id(user)  # before the first batch is written, as every line is
        batches = _checked_batches(raw, session, batch, max_chars)
    except GraphMemError as exc:
        raise fail(exc) from exc  # one line, as every command's errors
    digest = hashlib.sha256(raw).hexdigest()[:24]
    total = sum(len(b.messages) for b in batches)
    stored: list[str] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with _connect(home) as mem, Progress(*columns, console=err_console) as progress:
        held = _memory_count(mem, user)
        task = progress.add_task(f"importing {file.name}", total=total)
        for i, b in enumerate(batches):
            memories = mem.add_messages(
                b.messages,
                user_id=user,
                session_id=b.session_id,
                idempotency_key=f"import:{digest}:{batch}:{i}",
            )
            stored.extend(m.id for m in memories)
            progress.advance(task, len(b.messages))
        new = _memory_count(mem, user) - held
    sessions = sorted({b.session_id for b in batches})
    distinct = len(set(stored))  # a near-duplicate message reinforces a memory instead of adding one
    summary = {"user_id": user, "messages": total, "batches": len(batches), "sessions": sessions}
    _import_summary({**summary, "memories": distinct, "new": new}, as_json)


def _import_summary(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        _print_json(summary)
        return
    distinct, new, user = summary["memories"], summary["new"], escape(summary["user_id"])
    console.print(
        f"imported {summary['messages']} messages in {summary['batches']} batches into "
        f"{len(summary['sessions'])} sessions: [bold]{distinct}[/] memories for {user}, {new} new"
        + ("" if new or not distinct else " (all were already stored)"),
        highlight=False,
    )


def _memory_count(mem: GraphMemory, user: str) -> int:
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $user RETURN count(m) AS n", {"user": user})
    return int(rows[0]["n"])


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("delete-user")(delete_user)
    app.command("anonymize-user")(anonymize_user)
    app.command("import")(import_messages)
