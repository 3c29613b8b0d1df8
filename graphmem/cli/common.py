"""What every `graphmem` command module shares: the common options, connecting, failing, JSON output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

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


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2))
