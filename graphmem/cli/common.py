"""What every `graphmem` command module shares: the common options, connecting, failing, JSON output."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from typer.models import CommandFunctionType as CommandFunction

from graphmem.errors import GraphMemError

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
    """Settings from the environment, with the server home given on the command line."""
    from graphmem.config import Settings  # pydantic-settings loads on use: `--help` stays fast

    return Settings(home=home) if home is not None else Settings()


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
    err_console.print(f"[bold red]error:[/] {exc}")
    return typer.Exit(code=1)


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
