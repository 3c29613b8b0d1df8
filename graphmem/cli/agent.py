"""`graphmem mcp`, `graphmem api`, `graphmem facts ...` and `graphmem core ...` (registered by cli.py)."""

from __future__ import annotations

import logging
import sys
from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import App, AsOfOption, HomeOption, JsonOption, KnownAtOption, UserOption
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import connect_with as _connect_with
from graphmem.cli.common import not_found as _not_found
from graphmem.cli.common import ops as _ops
from graphmem.cli.common import print_json as _print_json
from graphmem.cli.common import serving as _serving
from graphmem.cli.common import settings_for as _settings
from graphmem.cli.common import warm as _warm
from graphmem.errors import ConfigurationError, ValidationError

if TYPE_CHECKING:
    from graphmem.models import CoreBlock, Fact

facts_app = App(help="Facts: set, get, list, retract, history.", no_args_is_help=True)
core_app = App(help="Core memory blocks: list, set, append, replace, history.", no_args_is_help=True)
console = Console()


# --- servers ---------------------------------------------------------------------------------------
def mcp(
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="the tenant the tools act for ($GRAPHMEM_MCP_USER_ID)")
    ] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="also read/write this agent's shared scope")
    ] = None,
    org: Annotated[
        str | None, typer.Option("--org", help="also read/write this organisation's scope")
    ] = None,
    home: HomeOption = None,
) -> None:
    """Serve the Model Context Protocol over stdio (tools: memory_recall, memory_remember, ...)."""
    from graphmem.adapters.mcp import serve

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)  # stdout carries the protocol
    settings = _serving(_settings(home))  # recall effects deferred, flushed when the client disconnects
    uid = user or settings.mcp_user_id
    if not uid:
        raise ConfigurationError("no user: pass --user or set GRAPHMEM_MCP_USER_ID")
    with _connect_with(settings) as mem:
        _warm(mem, recall=True)
        serve(mem, uid, agent_id=agent, org_id=org)


def api(
    host: Annotated[
        str,
        typer.Option("--host", help="bind address (loopback by default; beyond it, a key of 32+ characters)"),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port, 1 to 65535")] = 8765,
    home: HomeOption = None,
) -> None:
    """Serve the REST API (FastAPI + uvicorn); clients send the key of $GRAPHMEM_API_KEY in X-API-Key."""
    if not 1 <= port <= 65535:  # before the model loads (uvicorn's OverflowError came after it)
        raise ValidationError("--port", f"{port} is not a TCP port (1 to 65535)")
    import uvicorn

    from graphmem.adapters.rest import create_app

    settings = _serving(_settings(home))  # recall effects deferred, flushed at shutdown (close, lifespan)
    if settings.api_key is None:
        raise ConfigurationError("no API key: set GRAPHMEM_API_KEY")
    from graphmem.adapters.auth import check_admin_key

    short = check_admin_key(settings.api_key.get_secret_value(), host)  # a short key beyond loopback: refused
    if short:
        typer.echo(f"warning: {short}", err=True)
    from graphmem.adapters.batching import BatchingEmbedder
    from graphmem.memory import GraphMemory, default_embedder

    # one GraphMemory for every request; concurrent requests share batched model calls
    embedder = BatchingEmbedder(default_embedder(settings))
    with GraphMemory.connect(settings=settings, embedder=embedder) as mem:
        _warm(mem, recall=True)
        uvicorn.run(create_app(mem, settings.api_key.get_secret_value()), host=host, port=port)


# --- facts -----------------------------------------------------------------------------------------
@facts_app.command("set")
def facts_set(
    key: str,
    value: str,
    user: UserOption,
    fact_type: Annotated[str, typer.Option("--type", help="preference, profile, rule or custom")] = "custom",
    valid_from: Annotated[
        datetime | None, typer.Option("--valid-from", help="true since (ISO date or date-time; default: now)")
    ] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Set a fact's value (the previous value is kept as history)."""
    with _connect(home) as mem:
        fact = mem.facts.set(user, key, value, fact_type=fact_type, valid_from=valid_from)
    if as_json:
        _print_json(_ops().fact_json(fact))
    else:
        state = f"planned from {_when(fact.valid_from)}" if fact.planned_at is not None else fact.status
        console.print(f"{escape(fact.key)} = [bold]{escape(fact.value)}[/] ({state}, version {fact.version})")


@facts_app.command("get")
def facts_get(
    key: str,
    user: UserOption,
    as_of: AsOfOption = None,
    known_at: KnownAtOption = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """A fact's value, now or at a point in time (exit code 4 when there is none)."""
    with _connect(home) as mem:
        fact = mem.facts.get(user, key, as_of=as_of, known_at=known_at)
    if as_json:
        _print_json(_ops().fact_json(fact))
    elif fact is not None:
        console.print(f"{escape(fact.key)} = [bold]{escape(fact.value)}[/] ({_valid(fact)})")
    if fact is None:
        raise typer.Exit(code=4) if as_json else _not_found(_ops().no_value(key, as_of, known_at))


@facts_app.command("list")
def facts_list(
    user: UserOption,
    as_of: AsOfOption = None,
    known_at: KnownAtOption = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every fact's value, one per key: now, or at a point in time."""
    with _connect(home) as mem:
        facts = mem.facts.list(user, as_of=as_of, known_at=known_at)
    if as_json:
        _print_json([_ops().fact_json(f) for f in facts])
        return
    table = Table(title=f"facts of {user}")
    for column in ("key", "value", "valid from", "valid to", "recorded"):
        table.add_column(column)
    for f in facts:  # "valid to" of a current value: a plan replaces it then
        valid_to = _when(f.valid_to) if f.valid_to is not None else ""
        table.add_row(escape(f.key), escape(f.value), _when(f.valid_from), valid_to, _when(f.recorded_at))
    console.print(table)


def _valid(fact: Fact) -> str:
    """A version's valid interval in words: "valid from A" or "valid from A until B"."""
    until = f" until {_when(fact.valid_to)}" if fact.valid_to is not None else ""
    return f"valid from {_when(fact.valid_from)}{until}"


@facts_app.command("retract")
def facts_retract(
    key: str,
    user: UserOption,
    valid_to: Annotated[
        datetime | None,
        typer.Option("--valid-to", help="true until then (ISO date or date-time); default: never true"),
    ] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Retract a fact's current value (history keeps it; exit code 1 when there is none)."""
    with _connect(home) as mem:
        fact = mem.facts.retract(user, key, valid_to=valid_to)
    if as_json:
        _print_json(_ops().fact_json(fact))
    else:
        until = f"valid until {_when(fact.valid_to)}" if fact.valid_to else "never true as recorded"
        console.print(
            f"{escape(fact.key)} = [bold]{escape(fact.value)}[/] retracted ({until}, version {fact.version})"
        )


@facts_app.command("history")
def facts_history(
    key: str,
    user: UserOption,
    home: HomeOption = None,
    as_json: JsonOption = False,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", help="only the latest N versions (1 to 1,000)")
    ] = None,
) -> None:
    """Every version of a fact, oldest first (exit code 4 when the key has none)."""
    with _connect(home) as mem:
        versions = mem.facts.history(user, key, limit=limit)
    if as_json:
        _print_json([_ops().fact_json(f) for f in versions])
    if not versions:
        raise _not_found(f"no fact {key!r} for {user!r}: it was never set")
    if as_json:
        return
    table = Table(title=key)
    for column in ("version", "value", "status", "valid from", "valid to", "recorded"):
        table.add_column(column)
    for f in versions:
        table.add_row(
            str(f.version),
            escape(f.value),
            f.status + (f", revoked {_when(f.revoked_at)}" if f.revoked_at else ""),  # recorded again since
            _when(f.valid_from),
            _when(f.valid_to),
            _when(f.recorded_at),
        )
    console.print(table)


def _when(value: datetime | None) -> str:
    return f"{value:%Y-%m-%d %H:%M}" if value else "-"


# --- core memory blocks ----------------------------------------------------------------------------
def _print_blocks(blocks: list[CoreBlock], as_json: bool) -> None:
    if as_json:
        _print_json([_ops().block_json(b) for b in blocks])
        return
    table = Table(title="core memory")
    for column in ("label", "value", "chars", "read-only", "version"):
        table.add_column(column)
    for b in blocks:
        table.add_row(
            escape(b.label),
            escape(b.value),
            f"{len(b.value)}/{b.limit}",
            "yes" if b.read_only else "no",
            str(b.version),
        )
    console.print(table)


@core_app.command("list")
def core_list(user: UserOption, home: HomeOption = None, as_json: JsonOption = False) -> None:
    """The user's core memory blocks."""
    with _connect(home) as mem:
        _print_blocks(mem.core.list(user), as_json)


@core_app.command("history")
def core_history(label: str, user: UserOption, home: HomeOption = None, as_json: JsonOption = False) -> None:
    """Every version of a block, oldest first (exit code 4 when there is no such block)."""
    with _connect(home) as mem:
        versions = mem.core.history(user, label)
    if as_json or versions:
        _print_blocks(versions, as_json)
    if not versions:
        raise _not_found(f"no core memory block {label!r} for {user!r}")


@core_app.command("set")
def core_set(
    label: str,
    value: str,
    user: UserOption,
    limit: Annotated[
        int | None, typer.Option("--limit", help="character limit (default: the block's, else 2000)")
    ] = None,
    description: Annotated[
        str | None, typer.Option("--description", help="what the block is for (default: the block's)")
    ] = None,
    read_only: Annotated[
        bool | None,
        typer.Option(
            "--read-only/--writable",
            help="may the agent edit it (default: the block's, else writable)",
        ),
    ] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create or overwrite a block (allowed on a read-only block: read-only stops the agent's append and
    replace, not you). Options not given keep the block's current settings."""
    from graphmem.governance.core_blocks import DEFAULT_LIMIT

    with _connect(home) as mem:
        current = next((b for b in mem.core.list(user) if b.label == label), None)
        block = mem.core.set(
            user,
            label,
            value,
            limit=limit if limit is not None else (current.limit if current else DEFAULT_LIMIT),
            description=description if description is not None else (current.description if current else ""),
            read_only=read_only if read_only is not None else (current is not None and current.read_only),
        )
    _print_blocks([block], as_json)


@core_app.command("append")
def core_append(
    label: str, text: str, user: UserOption, home: HomeOption = None, as_json: JsonOption = False
) -> None:
    """Append a line to a block."""
    with _connect(home) as mem:
        block = mem.core.append(user, label, text)
    _print_blocks([block], as_json)


@core_app.command("replace")
def core_replace(
    label: str, old: str, new: str, user: UserOption, home: HomeOption = None, as_json: JsonOption = False
) -> None:
    """Replace text in a block."""
    with _connect(home) as mem:
        block = mem.core.replace(user, label, old, new)
    _print_blocks([block], as_json)


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)
    app.command("api")(api)
    app.add_typer(facts_app, name="facts")
    app.add_typer(core_app, name="core")
