"""`graphmem import`: a JSONL file of messages (one per line; or one JSON array of them) through add_messages.

Every message is checked before anything is written. Each message is recorded as imported under a key made
of its session and its content (:mod:`graphmem.store.imports`), not of its place in the file: a re-import
(the same file, with another ``--batch``, or with lines appended) skips the messages already imported (they
are not stored twice, nor reinforce their memory again) and stores the others; another ``--session`` is
another import. Progress goes to stderr, so ``--json`` output on stdout stays parseable.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from graphmem.cli.common import HomeOption, JsonOption, UserOption
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import print_json as _print_json
from graphmem.cli.common import settings_for as _settings
from graphmem.errors import ValidationError

if TYPE_CHECKING:
    from graphmem.memory import GraphMemory

console = Console()
err_console = Console(stderr=True)

STORED_FIELDS = ("role", "content", "timestamp", "name", "metadata", "tags")
"""The fields of a message dict add_messages stores (``session_id`` is the import's; ``parts`` and ``author``
are read from a Google ADK event)."""
READ_FIELDS = frozenset({*STORED_FIELDS, "session_id", "parts", "author"})
FORMATS = "graphmem import reads JSONL (one whole message per line) or one JSON array of messages"


@dataclass(frozen=True)
class Entry:
    """One message of the file: its line (or place in a JSON array, from 1), session and message."""

    number: int
    session_id: str
    message: Any


@dataclass
class Batch:
    """Consecutive messages of one session, stored by one ``add_messages`` call (``keys``: their import
    keys)."""

    session_id: str
    messages: list[Any] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)


def _entry(number: int, message: Any, session_id: str | None, unit: str) -> Entry:
    """A message with its session: the message's ``session_id`` (taken out of it), else ``session_id``."""
    from graphmem.model import new_ids
    from graphmem.model import validation as check

    session = session_id
    if isinstance(message, dict) and "session_id" in message:
        message = dict(message)
        session = message.pop("session_id")
    if not isinstance(session, str) or not session.strip():
        raise ValidationError(f"{unit} {number}", "has no session_id (add one, or pass --session)")
    try:  # as add_messages checks it, before any batch is written
        new_ids.refuse_invisible(session_id=check.identifier(session, "session_id"))
    except ValidationError as exc:
        raise ValidationError(f"{unit} {number}", f"session_id {exc.message}") from exc
    return Entry(number, session, message)


def parse_lines(lines: Iterable[str], *, session_id: str | None) -> list[Entry]:
    """JSONL lines to messages (pure): a line holds a message (``{role, content, timestamp?, name?, metadata?,
    tags?, session_id?}`` or a string); blank lines are skipped; a bad line is a ValidationError naming it."""
    out: list[Entry] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"line {number}", f"is not JSON ({exc.msg}); {FORMATS}") from exc
        except (ValueError, RecursionError) as exc:  # nested too deep, an integer of too many digits
            raise ValidationError(f"line {number}", f"is not JSON graphmem can read ({exc})") from exc
        out.append(_entry(number, message, session_id, "line"))
    return out


def batches(entries: Sequence[Entry], batch: int, keys: Sequence[str] | None = None) -> list[Batch]:
    """Consecutive messages of one session in batches of at most ``batch`` (pure)."""
    from graphmem.config import MAX_BATCH

    if not 1 <= batch <= MAX_BATCH:
        raise ValidationError("batch", f"must be between 1 and {MAX_BATCH}")
    out: list[Batch] = []
    for i, e in enumerate(entries):
        if not out or out[-1].session_id != e.session_id or len(out[-1].messages) >= batch:
            out.append(Batch(e.session_id))
        out[-1].messages.append(e.message)
        out[-1].lines.append(e.number)
        if keys is not None:
            out[-1].keys.append(keys[i])
    return out


def plan_import(lines: Iterable[str], *, session_id: str | None, batch: int) -> list[Batch]:
    """JSONL lines to batches of at most ``batch`` consecutive messages of one session (pure)."""
    return batches(parse_lines(lines, session_id=session_id), batch)


def fingerprints(entries: Sequence[Entry]) -> list[str]:
    """Each message's import key (pure): a hash of its session and content, and of how many equal messages
    of the session come before it (a turn said twice is two messages; its place in the file is not part of
    it, so neither other batches nor appended lines change it)."""
    seen: dict[str, int] = {}
    out = []
    for e in entries:
        body = json.dumps([e.session_id, e.message], sort_keys=True, ensure_ascii=False, default=str)
        seen[body] = seen.get(body, 0) + 1
        digest = hashlib.sha256(f"{body}\x1f{seen[body]}".encode()).hexdigest()
        out.append(f"import:{digest[:32]}")
    return out


def unknown_fields(entries: Sequence[Entry]) -> dict[str, list[int]]:
    """The fields of message dicts that add_messages does not read, each with the lines that hold it."""
    out: dict[str, list[int]] = {}
    for e in entries:
        if isinstance(e.message, dict):
            for name in e.message:
                if name not in READ_FIELDS:
                    out.setdefault(str(name), []).append(e.number)
    return out


def read_messages(raw: bytes, *, session_id: str | None, source: str) -> tuple[str, list[Entry]]:
    """The file's messages and what numbers them (``line``, or ``message`` in a JSON array); a file that holds
    none is refused."""
    # JSONL lines end at a newline only: splitlines() would also split text at U+2028, U+0085, ...; a byte
    # order mark (Windows editors write one) is not part of the first line
    body = raw.removeprefix(b"\xef\xbb\xbf")  # offsets in an error count from the first line's start
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = body[: exc.start].count(b"\n") + 1
        raise ValidationError(
            f"line {line}", f"is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from exc
    if text.lstrip().startswith("["):  # one JSON array of messages, as chat APIs take and exports hold
        unit, entries = "message", _array(text, session_id)
    else:
        unit, entries = "line", parse_lines(text.split("\n"), session_id=session_id)
    if not entries:
        raise ValidationError(source, f"no messages in it; {FORMATS}")
    return unit, entries


def _array(text: str, session_id: str | None) -> list[Entry]:
    try:
        messages = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"line {exc.lineno}", f"is not JSON ({exc.msg}); {FORMATS}") from exc
    except (ValueError, RecursionError) as exc:
        raise ValidationError("file", f"is not JSON graphmem can read ({exc})") from exc
    return [_entry(n, m, session_id, "message") for n, m in enumerate(messages, start=1)]


def _checked(raw: bytes, session: str | None, source: str, max_chars: int) -> tuple[str, list[Entry]]:
    """The file's messages, each checked as add_messages would check it (its line named in errors)."""
    from graphmem.model.messages import normalize

    unit, entries = read_messages(raw, session_id=session, source=source)
    for e in entries:
        try:
            normalize(e.message, e.number, max_chars=max_chars)
        except ValidationError as exc:
            where = exc.field.partition(".")[2] or "message"
            raise ValidationError(f"{unit} {e.number}", f"{where} {exc.message}") from exc
    return unit, entries


def _warn_unknown(entries: Sequence[Entry], unit: str) -> None:
    for name, numbers in unknown_fields(entries).items():
        more = f" and {len(numbers) - 5} more" if len(numbers) > 5 else ""
        where = (f"{unit}s " if len(numbers) > 1 else f"{unit} ") + ", ".join(map(str, numbers[:5])) + more
        err_console.print(
            escape(
                f"warning: {where}: field {name!r} is not stored; a message stores "
                f"{', '.join(STORED_FIELDS)} (put other values under metadata)"
            ),
            highlight=False,
            soft_wrap=True,
        )


def _read(file: Path) -> tuple[bytes, str]:
    """The bytes to import and what to call them: ``-`` is stdin."""
    if str(file) == "-":
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        return (stream.read() if stream is not None else sys.stdin.read().encode()), "stdin"
    try:
        return file.read_bytes(), str(file)
    except FileNotFoundError as exc:
        raise ValidationError(str(file), "no such file") from exc
    except IsADirectoryError as exc:
        raise ValidationError(str(file), "is a directory, not a file of messages") from exc
    except OSError as exc:
        raise ValidationError(str(file), f"cannot be read ({exc.strerror})") from exc


def import_messages(
    file: Annotated[
        Path, typer.Argument(help="JSONL: one message per line (or a JSON array of messages); - reads stdin")
    ],
    user: UserOption,
    session: Annotated[
        str | None, typer.Option("--session", "-s", help="session of messages without a session_id")
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

    Every message is checked before anything is written; messages imported before (whatever the batches, or
    lines appended since) are skipped: nothing is stored twice.
    """
    from graphmem.model import new_ids
    from graphmem.model import validation as check

    # before the first batch is written, as every message is (errors: App, one line)
    new_ids.refuse_invisible(user_id=check.user_id(user))
    batches([], batch)  # the batch size is refused before the file is read
    raw, source = _read(file)
    unit, entries = _checked(raw, session, source, _settings(home).max_content_chars)
    _warn_unknown(entries, unit)
    with _connect(home) as mem:
        summary = _store(mem, user, entries, batch, Path(source).name)
    _import_summary(summary, as_json)


def _store(mem: GraphMemory, user: str, entries: Sequence[Entry], batch: int, name: str) -> dict[str, Any]:
    """Store the messages not imported before, batch by batch, recording each as imported; the summary."""
    from graphmem.store import imports

    keys = fingerprints(entries)
    done = imports.imported(mem.runtime, user, keys)
    todo = [(e, k) for e, k in zip(entries, keys, strict=True) if k not in done]
    plan = batches([e for e, _ in todo], batch, [k for _, k in todo])
    stored: list[str] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    held = _memory_count(mem, user)
    with Progress(*columns, console=err_console, disable=not plan) as progress:
        task = progress.add_task(f"importing {name}", total=len(todo))
        for b in plan:
            digest = hashlib.sha256("\n".join(b.keys).encode()).hexdigest()[:32]
            memories = mem.add_messages(  # a retry after a crash before record() replays, writing nothing
                b.messages, user_id=user, session_id=b.session_id, idempotency_key=f"import-batch:{digest}"
            )
            imports.record(mem.runtime, user, zip(b.keys, (m.id for m in memories), strict=True))
            stored.extend(m.id for m in memories)
            progress.advance(task, len(b.messages))
    new = _memory_count(mem, user) - held if plan else 0
    return {
        "user_id": user,
        "messages": len(entries),
        "skipped": len(entries) - len(todo),  # imported before
        "batches": len(plan),
        "sessions": sorted({e.session_id for e, _ in todo}),  # the sessions that received messages
        "memories": len(set(stored)),  # a near-duplicate message reinforces a memory instead of adding one
        "new": new,
        "repeats": max(0, len(todo) - new),  # `new` counts the user's memories: a concurrent writer's too
    }


def _import_summary(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        _print_json(summary)
        return
    total, skipped, user = summary["messages"], summary["skipped"], summary["user_id"]
    if skipped == total:
        line = f"all {total} messages were imported for {user} before: nothing stored"
    else:
        line = (
            f"imported {total - skipped} of {total} messages in {_n(summary['batches'], 'batch')} into "
            f"{_n(len(summary['sessions']), 'session')}: {_n(summary['memories'], 'memory')} for {user}, "
            f"{summary['new']} new"
        )
        if summary["repeats"]:
            line += f", {_n(summary['repeats'], 'message')} repeating a stored memory (reinforced it)"
        if skipped:
            line += f"; {skipped} imported before, skipped"
    console.print(escape(line), highlight=False, soft_wrap=True)


def _n(count: int, noun: str) -> str:
    plural = {"batch": "batches", "memory": "memories"}.get(noun, noun + "s")
    return f"{count} {noun if count == 1 else plural}"


def _memory_count(mem: GraphMemory, user: str) -> int:
    rows = mem.query("MATCH (m:Memory) WHERE m.user_id = $user RETURN count(m) AS n", {"user": user})
    return int(rows[0]["n"])
