"""`graphmem reembed`: re-embed a store after changing the embedding model (registered by cli/main.py)."""

from __future__ import annotations

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from graphmem.cli.common import HomeOption, connect, console


def register(app: typer.Typer) -> None:
    app.command("reembed")(reembed)


def reembed(home: HomeOption = None) -> None:
    """Re-embed every memory and entity with the configured embedding model (GRAPHMEM_EMBEDDING_MODEL)."""
    columns = (TextColumn("re-embedding"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with connect(home) as mem, Progress(*columns, console=console) as bar:
        task = bar.add_task("reembed", total=None)
        counts = mem.reembed(progress=lambda done, total: bar.update(task, completed=done, total=total))
        mem.init()
    done = f"{counts['memories']} memories, {counts['entities']} entities and {counts['facts']} facts"
    console.print(f"re-embedded {done}")
