"""What every `graphmem` command module shares: the common options, connecting, failing, JSON output."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.models import CommandFunctionType as CommandFunction

from graphmem.errors import ConfigurationError, GraphMemError, ValidationError

if TYPE_CHECKING:
    from graphmem.config import Settings
    from graphmem.memory import GraphMemory

console = Console()
err_console = Console(stderr=True)

HomeOption = Annotated[
    Path | None,
    typer.Option("--home", help="server home (default: $GRAPHMEM_HOME or ~/.local/share/graphmem)"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON")]
YesOption = Annotated[bool, typer.Option("--yes", "-y", help="do not ask for confirmation")]
UserOption = Annotated[str, typer.Option("--user", "-u", help="the tenant (user_id)")]
# Scopes (docs/scopes.md): the shared scopes a command also reads or writes.
ScopeUserOption = Annotated[
    str | None, typer.Option("--user", "-u", help="the user (optional with --agent/--org)")
]
AgentOption = Annotated[str | None, typer.Option("--agent", help="the agent (its shared scope)")]
OrgOption = Annotated[str | None, typer.Option("--org", help="the organisation (its shared scope)")]
ScopeOption = Annotated[str, typer.Option("--scope", help="whose memory: session, user, agent or org")]
AsOfOption = Annotated[
    datetime | None, typer.Option("--as-of", help="valid time: as it was then (ISO date or date-time)")
]
KnownAtOption = Annotated[
    datetime | None,
    typer.Option("--known-at", help="transaction time: as recorded by then (ISO date or date-time)"),
]


def settings_for(home: Path | None) -> Settings:
    """Settings from the environment, with the server home given on the command line; a malformed variable
    is a :class:`ConfigurationError` naming it (``GRAPHMEM_CONNECT_TIMEOUT: ...``), not a traceback."""
    import pydantic

    from graphmem.config import Settings  # pydantic-settings loads on use: `--help` stays fast

    try:
        return Settings(home=home) if home is not None else Settings()
    except pydantic.ValidationError as exc:
        raise ConfigurationError("; ".join(_setting_error(Settings, e) for e in exc.errors())) from exc


def _setting_error(settings: type[Settings], error: Any) -> str:
    """One pydantic error as ``VARIABLE: message (got 'value')``, named by its environment variable."""
    field = str(error["loc"][0]) if error["loc"] else ""
    info = settings.model_fields.get(field)
    alias = getattr(info, "validation_alias", None) if info is not None else None
    choices = getattr(alias, "choices", None)
    if field == "home":
        name = "--home / GRAPHMEM_HOME"
    elif choices:
        name = str(choices[0])
    else:
        name = f"GRAPHMEM_{field.upper()}" if field else "settings"
    value = error.get("input")
    got = f" (got {value!r})" if isinstance(value, str | int | float) else ""
    return f"{name}: {error['msg']}{got}"


def out_path(path: Path) -> Path:
    """``--out``'s file, checked before the work that fills it: not a directory, in a directory that exists
    and may be written (a refusal names the option, not a traceback after the work)."""
    if path.is_dir():
        raise ValidationError("--out", f"{path} is a directory; name a file")
    parent = path.parent
    if not parent.is_dir():
        raise ValidationError("--out", f"{parent} does not exist (create it first)")
    if not os.access(path if path.exists() else parent, os.W_OK):
        raise ValidationError("--out", f"{path} cannot be written (permission denied)")
    return path


def write_out(path: Path, text: str) -> None:
    """Write ``text`` to ``--out``'s file as UTF-8 whatever the locale (a refusal, not a traceback)."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ValidationError("--out", f"{path} cannot be written: {exc.strerror or exc}") from exc


def id_column(table: Table, ids: Iterable[str], header: str = "id") -> None:
    """Add a column of ids shown whole on one line at any terminal width (they are copied into the next
    command): other columns wrap or shrink instead."""
    width = max((len(i) for i in ids), default=0)
    table.add_column(header, no_wrap=True, min_width=max(width, len(header)))


def serving(settings: Settings) -> Settings:
    """``settings`` for a long-running server (``graphmem api``, ``graphmem mcp``): recall's effects are
    written by the background writer (``recall_effects="deferred"``, flushed when the server stops)
    unless ``GRAPHMEM_RECALL_EFFECTS`` or the caller chose a mode."""
    if "recall_effects" in settings.model_fields_set:
        return settings
    return settings.model_copy(update={"recall_effects": "deferred"})


def connect(home: Path | None) -> GraphMemory:
    return connect_with(settings_for(home))


def connect_with(settings: Settings) -> GraphMemory:
    from graphmem.memory import GraphMemory  # loaded on use: commands that do not connect start fast

    return GraphMemory.connect(settings=settings)


def ops() -> ModuleType:
    """`graphmem.adapters.ops`, imported on first use (it pulls in the facade)."""
    from graphmem.adapters import ops as module

    return module


def warm(mem: GraphMemory, *, recall: bool = False) -> None:
    """Load the embedding model now, and with ``recall`` plan recall's and formation's statements too; then
    freeze what start-up made out of Python's cyclic collector (:meth:`graphmem.GraphMemory.warm`)."""
    mem.warm(plans=recall)


def fail(exc: GraphMemError) -> typer.Exit:
    """Print a graphmem error for a person and exit with status 1 (raise what this returns)."""
    err_console.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)  # one line: copyable
    return typer.Exit(code=1)


def confirm(question: str, yes: bool) -> None:
    """Ask ``question`` on stderr unless ``--yes`` was given; a no exits with status 1, nothing changed."""
    if not yes and not typer.confirm(question, err=True):
        err_console.print("aborted: nothing changed")
        raise typer.Exit(code=1)


def require_user(mem: GraphMemory, user: str, outcome: str) -> None:
    """Exit with status 4 (as other lookups that find nothing) when nothing at all is stored for ``user``: a
    mistyped id must not read as a successful deletion or run; ``outcome`` says what was not done."""
    from graphmem.errors import UserNotFound
    from graphmem.governance import users
    from graphmem.model import validation as check

    try:
        users.require_stored(mem.runtime, check.user_id(user))
    except UserNotFound as exc:
        raise not_found(f"{exc}: {outcome} (a mistyped user id, or one already deleted?)") from exc


def not_found(message: str) -> typer.Exit:
    """Say that nothing goes by the name a lookup was given, on stderr, and exit with status 4 as `facts get`
    does (raise what this returns; with --json the command prints its empty result first)."""
    err_console.print(escape(message), highlight=False, soft_wrap=True)
    return typer.Exit(code=4)


class App(typer.Typer):
    """A ``typer.Typer`` whose commands print a :class:`GraphMemError` for a person and exit with status 1
    (the one place the CLI handles graphmem's errors)."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[CommandFunction], CommandFunction]:
        register = super().command(*args, **kwargs)

        def decorate(fn: CommandFunction) -> CommandFunction:
            @functools.wraps(fn)
            def run(*a: Any, **kw: Any) -> Any:
                try:
                    return fn(*a, **kw)
                except GraphMemError as exc:
                    raise fail(exc) from exc

            register(run)
            return fn

        return decorate


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2))
