"""What every `graphmem` command module shares: the common options, connecting, failing, JSON output."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

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


def settings_for(home: Path | None) -> Settings:
    """Settings from the environment, with the server home given on the command line."""
    from graphmem.config import Settings  # pydantic-settings loads on use: `--help` stays fast

    return Settings(home=home) if home is not None else Settings()


def connect(home: Path | None) -> GraphMemory:
    return connect_with(settings_for(home))


def connect_with(settings: Settings) -> GraphMemory:
    from graphmem.memory import GraphMemory  # loaded on use: commands that do not connect start fast

    return GraphMemory.connect(settings=settings)


def ops() -> ModuleType:
    """`graphmem.adapters.ops`, imported on first use (it pulls in the facade)."""
    from graphmem.adapters import ops as module

    return module


def warm(mem: GraphMemory) -> None:
    """Load the embedding model now, so a long-running server's first request does not pay for it."""
    embedder = mem.embedder
    eager = getattr(embedder, "warm", None)
    if callable(eager):
        eager()
    else:
        embedder.embed(["warm-up"])


def fail(exc: GraphMemError) -> typer.Exit:
    """Print a graphmem error for a person and exit with status 1 (raise what this returns)."""
    err_console.print(f"[bold red]error:[/] {exc}")
    return typer.Exit(code=1)


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2))
