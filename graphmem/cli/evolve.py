"""`graphmem topics list|show|rebuild` and `graphmem tuning show|adapt|rollback` (registered by cli.main)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import App, HomeOption, JsonOption, UserOption, id_column, not_found
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import print_json as _print_json

topics_app = App(help="Topics of a user's memories: list, show one, rebuild.", no_args_is_help=True)
tuning_app = App(help="A user's retrieval parameters tuned from feedback.", no_args_is_help=True)
console = Console()


@topics_app.command("list")
def topics_list(user: UserOption, home: HomeOption = None, as_json: JsonOption = False) -> None:
    """The user's topics, largest first."""
    with _connect(home) as mem:
        topics = mem.topics.list(user)
    if as_json:
        _print_json([t.model_dump(mode="json") for t in topics])
        return
    table = Table()
    id_column(table, (t.id for t in topics))  # whole at any width: `topics show ID` takes it
    table.add_column("name")
    table.add_column("memories")
    for t in topics:
        table.add_row(escape(t.id), escape(t.name), str(t.size))
    console.print(table)


@topics_app.command("show")
def topics_show(
    topic_id: Annotated[str, typer.Argument(help="the topic id")],
    user: UserOption,
    k: Annotated[int, typer.Option("-k", help="most memories shown")] = 20,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """One topic's live memories, strongest first (exit code 4 when the user has no such topic)."""
    with _connect(home) as mem:
        memories = mem.topics.memories(topic_id, user_id=user, k=k)
        known = bool(memories) or any(t.id == topic_id for t in mem.topics.list(user))
    if as_json:
        _print_json([m.model_dump(mode="json") for m in memories])
    if not known:
        raise not_found(f"no topic {topic_id!r} for {user!r} (`graphmem topics list -u USER` lists them)")
    if as_json:
        return
    if not memories:
        console.print(f"topic {escape(topic_id)} has no live memories", highlight=False)
    for m in memories:
        console.print(f"[dim]{escape(m.id)}[/] {escape(m.content)}")


@topics_app.command("rebuild")
def topics_rebuild(user: UserOption, home: HomeOption = None) -> None:
    """Cluster the user's live memories into topics (replacing the previous ones)."""
    with _connect(home) as mem:
        _print_json(mem.topics.rebuild(user))


@tuning_app.command("show")
def tuning_show(user: UserOption, home: HomeOption = None) -> None:
    """The tuning in force and every version with its evidence."""
    with _connect(home) as mem:
        ev = mem.automation.evolution
        _print_json(
            {
                "tuning": ev.tuning(user).model_dump(mode="json"),
                "history": [t.model_dump(mode="json") for t in ev.history(user)],
            }
        )


@tuning_app.command("adapt")
def tuning_adapt(
    user: UserOption,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="decide only, write nothing")] = False,
    home: HomeOption = None,
) -> None:
    """Adapt the user's parameters to their feedback (a new version when the evidence supports it)."""
    with _connect(home) as mem:
        _print_json(mem.automation.evolution.adapt(user, dry_run=dry_run).model_dump(mode="json"))


@tuning_app.command("rollback")
def tuning_rollback(
    user: UserOption,
    to_version: Annotated[int, typer.Option("--to", help="the version to restore (0: the preset's)")],
    home: HomeOption = None,
) -> None:
    """Put an earlier version back in force, as a new version."""
    with _connect(home) as mem:
        _print_json(mem.automation.evolution.rollback(user, to_version=to_version).model_dump(mode="json"))


def register(app: typer.Typer) -> None:
    app.add_typer(topics_app, name="topics")
    app.add_typer(tuning_app, name="tuning")
