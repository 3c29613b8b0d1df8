"""The `graphmem` command line (typer + rich)."""

from __future__ import annotations

import json
import shutil
import sys
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.cli.agent import register as register_agent
from graphmem.cli.common import (
    AgentOption,
    App,
    AsOfOption,
    HomeOption,
    KnownAtOption,
    OrgOption,
    ScopeOption,
    ScopeUserOption,
)
from graphmem.cli.common import connect as _connect
from graphmem.cli.doctor import register as register_doctor
from graphmem.cli.embeddings import register as register_embeddings
from graphmem.cli.evolve import register as register_evolve
from graphmem.cli.history import register as register_history
from graphmem.cli.jobs import register as register_jobs
from graphmem.cli.keys import register as register_keys
from graphmem.cli.kit import register as register_kit
from graphmem.cli.memory import register as register_memory
from graphmem.cli.stats import register as register_stats
from graphmem.cli.users import register as register_users
from graphmem.errors import ValidationError

if TYPE_CHECKING:
    from graphmem.memory import GraphMemory
    from graphmem.models import Hit

app = App(help="graphmem: long-term memory for AI agents, on Neo4j.", no_args_is_help=True)
server_app = App(help="Manage the local Neo4j server (assembled from Maven Central).", no_args_is_help=True)
app.add_typer(server_app, name="server")
register_jobs(app)  # graphmem jobs ..., graphmem worker, graphmem health
register_agent(app)  # graphmem mcp, graphmem api, graphmem facts ..., graphmem core ...
register_memory(app)  # graphmem memory update|forget|history, graphmem context, graphmem timeline
register_users(app)  # graphmem export, delete-user, anonymize-user, import
register_history(app)  # graphmem snapshot, diff, audit
register_embeddings(app)  # graphmem reembed
register_keys(app)  # graphmem keys create | list | revoke
register_doctor(app)  # graphmem doctor
register_stats(app)  # graphmem stats
register_kit(app)  # graphmem kit [NAME]
register_evolve(app)  # graphmem topics list|show|rebuild, graphmem tuning show|adapt|rollback

console = Console()


def _server(home: Path | None) -> Any:
    from graphmem.server import LocalServer

    return LocalServer(home)


# --- server ----------------------------------------------------------------------------------------
@server_app.command("start")
def server_start(home: HomeOption = None) -> None:
    """Assemble (once) and start the local Neo4j server; wait until Bolt answers."""
    with console.status("starting Neo4j") as spinner:
        status = _server(home).start(progress=lambda msg: spinner.update(msg))
    console.print(f"[green]running[/] pid {status.pid}: {status.bolt_uri}, Browser {status.browser_url}")


@server_app.command("stop")
def server_stop(home: HomeOption = None) -> None:
    """Stop the local server cleanly (data is kept)."""
    _server(home).stop()
    console.print("stopped")


@server_app.command("status")
def server_status(
    home: HomeOption = None, as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False
) -> None:
    """Whether the local server runs, its URLs, user name and password file."""
    status = _server(home).status()
    if as_json:
        print(json.dumps(status.to_dict(), indent=2))
        return
    table = Table(show_header=False)
    for key, value in status.to_dict().items():
        table.add_row(key, str(value))
    console.print(table)
    if not status.running:
        raise typer.Exit(code=3)


@server_app.command("logs")
def server_logs(home: HomeOption = None, lines: int = 100) -> None:
    """The tail of the server's log."""
    print(_server(home).logs(lines))


# --- memory ----------------------------------------------------------------------------------------
@app.command("init")
def init(home: HomeOption = None) -> None:
    """Create graphmem's constraints and indexes (idempotent)."""
    with _connect(home) as mem:
        mem.init()
    console.print("schema ready")


@app.command("remember")
def remember(
    text: Annotated[str, typer.Argument(help="the text to store; - reads it from stdin (UTF-8)")],
    user: ScopeUserOption = None,
    session: Annotated[str | None, typer.Option("--session", "-s")] = None,
    memory_type: Annotated[str, typer.Option("--type")] = "episodic",
    agent: AgentOption = None,
    org: OrgOption = None,
    scope: ScopeOption = "user",
    home: HomeOption = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Store one memory (`--scope agent --agent A`: shared by every user of agent A; docs/scopes.md); TEXT
    `-` reads the text from stdin (`echo "..." | graphmem remember - -u U`)."""
    if text == "-":
        text = _stdin_text()
    with _connect(home) as mem:
        memory = mem.remember(
            text,
            user_id=user,
            session_id=session,
            memory_type=memory_type,
            agent_id=agent,
            org_id=org,
            scope=scope,
        )
    if as_json:
        print(memory.model_dump_json())
    else:
        console.print(f"remembered [bold]{memory.id}[/]")


def _stdin_text() -> str:
    """The text piped to a command whose argument is ``-``: UTF-8 whatever the locale, without the final
    line break that ``echo`` adds."""
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError("text", f"stdin is not UTF-8 (byte {exc.start})") from exc
    return text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")


def _hits_table(hits: list[Hit], title: str) -> Table:
    table = Table(title=escape(title))
    table.add_column("#", justify="right")
    table.add_column("score", justify="right")
    table.add_column("confidence", justify="right")
    table.add_column("memory")
    table.add_column("how", style="dim")
    for i, hit in enumerate(hits, start=1):
        text = escape(hit.memory.content)
        for detail in hit.details:  # a summary: the sources the query found it by, under it
            text += f"\n[dim]detail:[/] {escape(detail.content)}"
        sure = f"{hit.confidence:.2f}" if hit.confidence >= 0.5 else f"[dim]{hit.confidence:.2f}[/]"
        table.add_row(str(i), f"{hit.score:.3f}", sure, text, escape(hit.explanation.search_level))
    return table


@app.command("recall")
def recall(
    query: str,
    user: ScopeUserOption = None,
    k: Annotated[int, typer.Option("-k")] = 10,
    session: Annotated[str | None, typer.Option("--session", "-s", help="also this session's scope")] = None,
    agent: AgentOption = None,
    org: OrgOption = None,
    as_of: AsOfOption = None,
    known_at: KnownAtOption = None,
    memory_type: Annotated[list[str] | None, typer.Option("--type", help="only these types (repeat)")] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="only memories with every one (repeat)")
    ] = None,
    meta: Annotated[
        list[str] | None,
        typer.Option("--meta", help="KEY=VALUE: only memories whose metadata has it (repeat)"),
    ] = None,
    home: HomeOption = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Recall a user's memories for a query, with those of its session, agent and organisation if named;
    with --as-of / --known-at, as it was then (read-only; docs/temporal.md); --type / --tag / --meta filter
    them (a --meta value is read as JSON when it parses: 3, true, "x"; else as text)."""
    metadata = dict(_key_value(m) for m in meta or [])
    filters = (
        {"memory_type": memory_type, "tags": tag, "metadata": metadata}
        if memory_type or tag or meta
        else None
    )
    with _connect(home) as mem:
        hits = mem.recall(
            query,
            user_id=user,
            k=k,
            session_id=session,
            agent_id=agent,
            org_id=org,
            as_of=as_of,
            known_at=known_at,
            filters=filters,
        )
    if as_json:
        print(json.dumps([h.model_dump(mode="json") for h in hits], indent=2))
    else:
        console.print(_hits_table(hits, query))


@app.command("demo")
def demo(home: HomeOption = None, k: int = 3) -> None:
    """Start the local server, ingest a sample conversation, recall from it."""
    with console.status("starting Neo4j") as spinner:
        status = _server(home).start(progress=lambda msg: spinner.update(msg))
    sample = json.loads(
        resources.files("graphmem.data").joinpath("sample_conversation.json").read_text(encoding="utf-8")
    )
    user = sample["user_id"]
    with _connect(home) as mem:
        mem.init()
        count = _ingest_sample(mem, sample)
        console.print(f"ingested {count} messages for user [bold]{user}[/]")
        # asked the morning after the conversation (valid time), so "later this year" means what it meant then
        asked = datetime.fromisoformat(sample["asked_at"])
        facts = mem.facts.list(user, as_of=asked)
        console.print(
            "facts it extracted (mem.facts.list): " + escape("; ".join(f"{f.key} = {f.value}" for f in facts))
        )
        console.print(f"questions asked as of {asked:%Y-%m-%d %H:%M} UTC (recall(..., as_of=...))")
        for q in sample["queries"]:
            console.print(_hits_table(mem.recall(q, user_id=user, k=k, as_of=asked), q))
    console.print(f"\nExplore the graph in the Neo4j Browser: [bold]{status.browser_url}[/]")
    console.print(f"  user [bold]{status.username}[/], password in {status.password_file}")
    console.print(escape(f"  MATCH p=(m:Memory {{user_id: '{user}'}})-[r]-() RETURN p LIMIT 200"))
    _next_steps(user)


def _key_value(pair: str) -> tuple[str, Any]:
    key, sep, raw = pair.partition("=")
    if not sep or not key:
        raise typer.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--meta")
    try:
        return key, json.loads(raw)
    except ValueError:
        return key, raw


def _next_steps(user: str) -> None:
    """What to try after the demo, with the command as this shell reaches it (``.venv/bin/graphmem`` when the
    virtualenv is not on the PATH, as after ``make demo``)."""
    invoked = sys.argv[0] if sys.argv and sys.argv[0].endswith("graphmem") else "graphmem"
    on_path = shutil.which("graphmem")
    cli = "graphmem" if on_path and Path(on_path).resolve() == Path(invoked).resolve() else invoked
    steps = [
        (f'{cli} recall "where does Emma live?" -u {user}', "your own questions"),
        (f'{cli} context "plan the weekend" -u {user}', "what an agent gets in its prompt"),
        (f"{cli} memory list -u {user} -n 5", "the latest memories (memory get ID: one)"),
        ("export GRAPHMEM_API_KEY=$(openssl rand -hex 16)", "the REST API's key (the dashboard asks for it)"),
        (f"{cli} api", "the REST API, and its dashboard at /dashboard"),
    ]
    width = max(len(command) for command, _ in steps)
    console.print("\nNext, from this shell:")
    for command, what in steps:
        console.print(escape(f"  {command.ljust(width)}  # {what}"), highlight=False, soft_wrap=True)


def _ingest_sample(mem: GraphMemory, sample: dict[str, Any]) -> int:
    """Ingest the sample afresh (the demo user is deleted first): every run starts from the same state."""
    user = sample["user_id"]
    mem.users.delete(user)
    count = 0
    for session in sample["sessions"]:
        start = datetime.fromisoformat(session["date"])
        messages = [
            {"role": m["role"], "content": m["content"], "timestamp": start + timedelta(minutes=i)}
            for i, m in enumerate(session["messages"])
        ]
        count += len(mem.add_messages(messages, user_id=user, session_id=session["session_id"]))
    return count


HELP_PANELS = {  # --help lists the commands in these groups, in this order: what a new user needs first
    # (within a panel typer lists single commands before command groups: each list is written so)
    "Start here": ["demo", "doctor", "init", "server"],
    "Remember and recall": ["remember", "recall", "context", "import", "memory", "facts", "core", "topics"],
    "History and audit": ["timeline", "snapshot", "diff", "audit", "kit"],
    "Users (GDPR)": ["export", "delete-user", "anonymize-user"],
    "Maintenance": ["worker", "stats", "reembed", "jobs", "tuning"],
    "Serve agents": ["api", "mcp", "health", "keys"],
}


def _arrange(cli: typer.Typer) -> None:
    """Put every command and command group in its --help panel (:data:`HELP_PANELS`; one not listed goes
    last, under "More"), in the panels' order."""
    listed = [(name, panel) for panel, names in HELP_PANELS.items() for name in names]
    rank = {name: (i, panel) for i, (name, panel) in enumerate(listed)}

    def place(info: Any) -> tuple[int, str]:
        name = info.name or info.callback.__name__.replace("_", "-")
        return rank.get(name, (len(rank), "More"))

    infos: list[Any] = [*cli.registered_commands, *cli.registered_groups]
    for info in infos:
        info.rich_help_panel = place(info)[1]
    cli.registered_commands.sort(key=lambda info: place(info)[0])
    cli.registered_groups.sort(key=lambda info: place(info)[0])


_arrange(app)


if __name__ == "__main__":  # python -m graphmem.cli.main, as the `graphmem` script
    app()
