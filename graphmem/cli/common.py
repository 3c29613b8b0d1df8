"""What every `graphmem` command module shares: the common options, connecting, failing, JSON output."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.models import CommandFunctionType as CommandFunction

from graphmem.config import Settings
from graphmem.errors import GraphMemError
from graphmem.memory import GraphMemory

console = Console()
err_console = Console(stderr=True)

HomeOption = Annotated[
    Path | None,
    typer.Option("--home", help="server home (default: $GRAPHMEM_HOME or ~/.local/share/graphmem)"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON")]
UserOption = Annotated[str, typer.Option("--user", "-u", help="the tenant (user_id)")]


def settings_for(home: Path | None) -> Settings:
    """Settings from the environment, with the server home given on the command line."""
    return Settings(home=home) if home is not None else Settings()


def connect(home: Path | None) -> GraphMemory:
    return GraphMemory.connect(settings=settings_for(home))


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
