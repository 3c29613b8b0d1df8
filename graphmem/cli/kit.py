"""`graphmem kit [NAME]`: the Browser kit's queries (cypher/kit/) ready to paste into the Neo4j Browser.

Some kit files compute retention, strength or an edge's weight through graphmem's shared fragments
(``{{retention_now(m, ...)}}``), which only graphmem's loader expands: the files themselves are not Cypher
the Browser accepts. This command prints a query with its ``:param`` header and every fragment expanded.
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import console


def register(app: typer.Typer) -> None:
    app.command("kit")(kit)


def kit_names() -> list[str]:
    from graphmem.store.queries import query_names

    return [name.split("/", 1)[1] for name in query_names("kit")]


def kit_text(name: str) -> str:
    """The kit query ``name`` as the Browser takes it: its comment header (the ``:param`` lines to run
    first) and the statement with every ``{{fragment(...)}}`` expanded."""
    from graphmem.store.queries import expand

    if name not in kit_names():
        raise typer.BadParameter(
            f"no kit query {name!r}; the kit: {', '.join(kit_names())}", param_hint="NAME"
        )
    text = resources.files("graphmem.cypher").joinpath(f"kit/{name}.cypher").read_text(encoding="utf-8")
    return expand(text).strip() + "\n"


def kit(
    name: Annotated[
        str | None, typer.Argument(help="a kit query (omitted: list them)", show_default=False)
    ] = None,
) -> None:
    """The Neo4j Browser kit: list its queries, or print one ready to paste (run its :param lines first)."""
    if name is None:
        table = Table(title="the Neo4j Browser kit (docs/interfaces.md)", show_lines=True)
        table.add_column("query", style="bold", no_wrap=True)
        table.add_column("what it shows")
        for each in kit_names():
            table.add_row(each, escape(_summary(kit_text(each))))
        console.print(table)
        console.print(
            "print one with `graphmem kit NAME`; styles: cypher/kit/graphmem.grass", highlight=False
        )
        return
    print(kit_text(name), end="")


def _summary(text: str) -> str:
    """The header's description: its comment lines before the first ``:param`` line."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("//") or line.startswith("// :param"):
            break
        lines.append(line.lstrip("/ "))
    return " ".join(lines)
