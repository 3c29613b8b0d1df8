"""`graphmem memory get|list|update|forget|feedback|history` and `graphmem context` (registered on the main
app by cli.py)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import (
    AgentOption,
    App,
    AsOfOption,
    HomeOption,
    JsonOption,
    KnownAtOption,
    OrgOption,
    ScopeOption,
    ScopeUserOption,
    UserOption,
    id_column,
)
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import ops as _ops
from graphmem.cli.common import print_json as _print_json

if TYPE_CHECKING:
    from graphmem.models import Memory

memory_app = App(
    help="Memories: list them, show one, update its text, forget it, rate it, show its versions.",
    no_args_is_help=True,
)
console = Console()

MemoryArgument = Annotated[str, typer.Argument(help="the memory id")]


def _versions_table(memories: list[Memory], title: str) -> Table:
    table = Table(title=title)
    for column in ("version", "content", "status", "written"):
        table.add_column(column)
    for m in memories:
        written = m.updated_at or m.recorded_at or m.created_at  # when this version was recorded
        table.add_row(
            str(m.version), escape(m.content), m.status, f"{written:%Y-%m-%d %H:%M:%S}" if written else "-"
        )
    return table


@memory_app.command("update")
def update(
    memory_id: MemoryArgument,
    text: str,
    user: UserOption,
    expected_version: Annotated[
        int | None,
        typer.Option(
            "--expected-version", help="the version you read; refused if it moved (default: latest)"
        ),
    ] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Change a memory's text (a new version; the previous one stays in its history)."""
    with _connect(home) as mem:
        memory = _ops().update_memory(mem, memory_id, text, user_id=user, expected_version=expected_version)
    if as_json:
        _print_json(_ops().memory_json(memory))
    else:
        console.print(f"updated [bold]{memory.id}[/] to version {memory.version}")


@memory_app.command("forget")
def forget(
    memory_id: MemoryArgument, user: UserOption, home: HomeOption = None, as_json: JsonOption = False
) -> None:
    """Soft-forget a memory: out of recall, restorable (`graphmem jobs restore ID --user USER`)."""
    with _connect(home) as mem:
        mem.forget(memory_id, user_id=user)
    if as_json:
        _print_json({"forgotten": memory_id})
    else:
        console.print(f"forgot [bold]{memory_id}[/]")


@memory_app.command("feedback")
def feedback(
    memory_id: MemoryArgument,
    user: UserOption,
    useful: Annotated[
        bool, typer.Option("--useful/--not-useful", help="whether the memory helped answer the question")
    ] = True,
    query: Annotated[
        str | None,
        typer.Option(
            "--query", "-q", help="the question it answers (default: the latest recall that returned it)"
        ),
    ] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Say whether a memory helped: its strength moves, the question becomes (or stops being) a full-text key
    of it, and the user's retrieval weights learn from it (`graphmem tuning adapt`)."""
    with _connect(home) as mem:
        mem.memories.feedback(memory_id, user_id=user, useful=useful, query=query)
    if as_json:
        _print_json({"memory_id": memory_id, "useful": useful})
    else:
        console.print(f"{'useful' if useful else 'not useful'}: [bold]{memory_id}[/]")


@memory_app.command("history")
def history(
    memory_id: MemoryArgument, user: UserOption, home: HomeOption = None, as_json: JsonOption = False
) -> None:
    """Every version of a memory, oldest first."""
    with _connect(home) as mem:
        versions = mem.memories.history(memory_id, user_id=user)
    if as_json:
        _print_json([_ops().memory_json(m) for m in versions])
    else:
        console.print(_versions_table(versions, memory_id))


@memory_app.command("get")
def get(
    memory_id: MemoryArgument, user: UserOption, home: HomeOption = None, as_json: JsonOption = False
) -> None:
    """One memory, current version, with its status, priority and retention."""
    with _connect(home) as mem:
        m = mem.memories.get(memory_id, user_id=user)
    if as_json:
        _print_json(_ops().memory_json(m))
        return
    console.print(f"[bold]{escape(m.content)}[/]")
    when = m.occurred_at or m.created_at
    console.print(
        f"{m.id}  version {m.version}  {m.status}  {m.priority}  {m.memory_type}  retention {m.retention:.2f}"
        + (f"  {when:%Y-%m-%d %H:%M}" if when else "")
    )


def _whose(scope: str, user: str | None, session: str | None, agent: str | None, org: str | None) -> str:
    """Whose memories a listing shows, for its title."""
    named = {"session": f"session {session} of {user}", "agent": f"agent {agent}", "org": f"org {org}"}
    return escape(named.get(scope, str(user)))


def _page_table(memories: list[Memory], title: str) -> Table:
    table = Table(title=title)
    for column in ("when", "content", "status", "type"):
        table.add_column(column)
    id_column(table, (m.id for m in memories))  # whole at any width: `memory get ID`, `--after ID` take it
    for m in memories:
        when = m.occurred_at or m.created_at
        table.add_row(
            f"{when:%Y-%m-%d %H:%M}" if when else "-", escape(m.content), m.status, m.memory_type, m.id
        )
    return table


@memory_app.command("list")
def list_memories(
    user: ScopeUserOption = None,
    limit: Annotated[int, typer.Option("--limit", "-n", help="memories per page (at most 1,000)")] = 20,
    offset: Annotated[int, typer.Option("--offset", help="skip this many (newest first)")] = 0,
    after: Annotated[
        str | None, typer.Option("--after", help="the page after this memory id (the last one shown)")
    ] = None,
    status: Annotated[
        list[str] | None, typer.Option("--status", help="repeat for several (default: active, weak, dormant)")
    ] = None,
    memory_type: Annotated[str | None, typer.Option("--type", help="episodic, semantic, ...")] = None,
    session: Annotated[str | None, typer.Option("--session", help="one session's memories")] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="repeat: a memory must carry every one")
    ] = None,
    agent: AgentOption = None,
    org: OrgOption = None,
    scope: ScopeOption = "user",
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """The user's memories (`--scope agent --agent A`: the agent's shared ones; session, org likewise),
    newest first, a page at a time, and how many match (`--json`: the page alone)."""
    filters: dict[str, Any] = {
        "status": status,
        "memory_type": memory_type,
        "session_id": session,
        "tags": tag,
    }
    reach: dict[str, Any] = {"user_id": user, "scope": scope, "agent_id": agent, "org_id": org}
    with _connect(home) as mem:
        memories = mem.memories.list(limit=limit, offset=offset, after=after, **filters, **reach)
        # the count reads the whole scope: a page asked by cursor does not pay it again (as REST)
        total = None if as_json or after is not None else mem.memories.count(**filters, **reach)
    if as_json:
        _print_json([_ops().memory_json(m) for m in memories])
        return
    whose = _whose(scope, user, session, agent, org)
    where = f"from {offset + 1}" if after is None else f"after {after}"
    if not memories:
        if after is not None:
            console.print(f"no memories of {whose} {where}")
        else:
            console.print(f"no memories of {whose} match" if not total else f"{total} match, none {where}")
        return
    shown = f"showing {offset + 1}–{offset + len(memories)} of {total}"
    if after is not None:
        shown = f"showing {len(memories)} {where}"
    if (
        len(memories) == limit and memories[-1].occurred_at is not None
    ):  # a page's end has a place to go on from
        shown += f"; next page: --after {memories[-1].id}"
    console.print(_page_table(memories, f"memories of {whose}"))
    console.print(shown, soft_wrap=True)  # one line: the --after id stays whole


def context(
    query: str,
    user: UserOption,
    budget: Annotated[
        int | None, typer.Option("--budget", help="token budget (default: the configured context_budget)")
    ] = None,
    k: Annotated[int, typer.Option("-k", help="memories to recall")] = 10,
    as_of: AsOfOption = None,
    known_at: KnownAtOption = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """The prompt-ready memory context for a query: core memory, the most relevant facts, recalled memories,
    recent history, the other facts; with --as-of / --known-at, as it was then."""
    with _connect(home) as mem:
        ctx = mem.context(query, user_id=user, token_budget=budget, k=k, as_of=as_of, known_at=known_at)
    if as_json:
        _print_json(_ops().context_json(ctx))
        return
    print(ctx.text)
    console.print(
        f"[dim]{ctx.tokens}/{ctx.budget} tokens, {len(ctx.kept)} kept, {len(ctx.dropped)} dropped[/]"
    )


def timeline(
    user: UserOption,
    start: Annotated[
        datetime | None, typer.Option("--start", help="from then on, inclusive (ISO date or date-time)")
    ] = None,
    end: Annotated[
        datetime | None, typer.Option("--end", help="up to then, inclusive (ISO date or date-time)")
    ] = None,
    known_at: KnownAtOption = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", help="the first N events (1 to 1,000; default: all)")
    ] = None,
    newest: Annotated[bool, typer.Option("--newest", help="latest first (what happened lately)")] = False,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """A user's dated events, oldest first (--newest: latest first): memories at their valid time, updates,
    forgetting, fact values starting and stopping to hold (valid time); with --known-at, only what had been
    recorded by then."""
    with _connect(home) as mem:
        events = mem.temporal.timeline(
            user, start=start, end=end, known_at=known_at, limit=limit, newest_first=newest
        )
    if as_json:
        _print_json([e.model_dump(mode="json") for e in events])
        return
    table = Table(title=f"timeline of {escape(user)}")
    for column in ("at (UTC)", "event", "text", "session"):
        table.add_column(column)
    for e in events:
        table.add_row(f"{e.at:%Y-%m-%d %H:%M}", e.kind, escape(e.text or ""), escape(e.session_id or ""))
    console.print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(memory_app, name="memory")
    app.command("context")(context)
    app.command("timeline")(timeline)
