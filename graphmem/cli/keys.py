"""`graphmem keys create | list | revoke`: per-user (agent, organisation, admin) REST API keys."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import App, HomeOption, JsonOption, id_column
from graphmem.cli.common import connect as _connect
from graphmem.cli.common import print_json as _print_json
from graphmem.errors import ValidationError

keys_app = App(help="REST API keys, stored hashed in Neo4j", no_args_is_help=True)
console = Console()


def _scope(user: str | None, agent: str | None, org: str | None, admin: bool) -> tuple[str, str | None]:
    if user is not None and not admin:
        return "user", user  # with --agent/--org: a user key granted those shared scopes
    chosen: list[tuple[str, str | None]] = [
        (s, v) for s, v in (("user", user), ("agent", agent), ("org", org)) if v is not None
    ]
    if admin:
        chosen.append(("admin", None))
    if len(chosen) != 1:
        raise ValidationError("scope", "give exactly one of --user, --agent, --org, --admin")
    return chosen[0]


@keys_app.command("create")
def create(
    user: Annotated[str | None, typer.Option("--user", "-u", help="a key for this user's routes")] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="a key for this agent (with --user: the user's agent)")
    ] = None,
    org: Annotated[
        str | None, typer.Option("--org", help="a key for this organisation (with --user: the user's org)")
    ] = None,
    admin: Annotated[bool, typer.Option("--admin", help="a key that reaches every route")] = False,
    label: Annotated[str | None, typer.Option("--label", help="a note to tell keys apart")] = None,
    home: HomeOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create a key and print it once (only its salted hash is stored)."""
    scope, subject = _scope(user, agent, org, admin)
    with _connect(home) as mem:
        mem.init()
        from graphmem.adapters import auth  # FastAPI loads only for this command

        grants = {"agent_id": agent, "org_id": org} if scope == "user" else {}
        key, record = auth.create_key(mem.runtime.store, scope, subject, label=label, **grants)
    if as_json:
        _print_json({"key": key, "id": record["id"], "scope": scope, "subject": subject, **grants})
        return
    console.print(f"[bold]{key}[/]")
    console.print(f"id {record['id']}, scope {scope}{'' if subject is None else ' ' + subject}: shown once")


@keys_app.command("list")
def list_(home: HomeOption = None, as_json: JsonOption = False) -> None:
    """Every key (ids, scopes, subjects; never a secret)."""
    with _connect(home) as mem:
        from graphmem.adapters import auth

        rows = auth.list_keys(mem.runtime.store)
    if as_json:
        _print_json([{k: (str(v) if v is not None else None) for k, v in r.items()} for r in rows])
        return
    table = Table()
    id_column(table, (str(r.get("id") or "") for r in rows))  # whole at any width: `keys revoke ID` takes it
    for header in ("scope", "subject", "label", "created", "revoked"):
        table.add_column(header)
    columns = ("id", "scope", "subject", "label", "created_at", "revoked_at")
    for r in rows:
        table.add_row(*(escape(str(r.get(c) or "")) for c in columns))
    console.print(table)


@keys_app.command("revoke")
def revoke(key_id: Annotated[str, typer.Argument(help="the key's id")], home: HomeOption = None) -> None:
    """Revoke a key: the next request with it gets 401."""
    with _connect(home) as mem:
        from graphmem.adapters import auth

        auth.revoke_key(mem.runtime.store, key_id)
    console.print(f"revoked {key_id}")


def register(app: typer.Typer) -> None:
    app.add_typer(keys_app, name="keys")


__all__ = ["register"]
