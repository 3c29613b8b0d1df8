"""`graphmem doctor`: check the set-up piece by piece and print the fix for each problem.

Checks, in order: Java, Maven, the managed server (or the one ``NEO4J_URI`` names), the Bolt port, the
plugins (APOC, GDS), the embedding model's files and their hashes, the schema (every named constraint and
index graphmem creates), the worker heartbeat, whether a dynamics parameter change is still to be
applied to every memory, and whether memories lack the search keys formation stores (a store written by
graphmem before 2026-12-01). Exit status 1 when any check fails; warnings (a missing worker, a missing
optional plugin, memories without their keys) do not fail it.
"""

from __future__ import annotations

import hashlib
import re
import socket
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import typer
from rich.markup import escape
from rich.table import Table

from graphmem.cli.common import HomeOption, JsonOption, console, print_json, settings_for
from graphmem.errors import GraphMemError

if TYPE_CHECKING:
    from graphmem.config import Settings
    from graphmem.memory import GraphMemory


@dataclass
class Check:
    name: str
    status: str  # ok, warn, fail
    detail: str
    fix: str = ""


def _home_flag(settings: Settings) -> str:
    return f" --home {settings.home}" if settings.home else ""


def check_java(settings: Settings) -> Check:
    from graphmem.server import LocalServer

    try:
        java = LocalServer(settings.home)._java()
    except GraphMemError as exc:
        return Check(
            "java", "fail", str(exc), "install a JDK 17 or 21 (apt-get install openjdk-17-jre-headless)"
        )
    return Check("java", "ok", str(java))


def check_maven(settings: Settings) -> Check:
    from graphmem.server import LocalServer
    from graphmem.server.assembly import find_mvn

    try:
        mvn = find_mvn()
    except GraphMemError as exc:
        assembled = (LocalServer(settings.home).neo4j_home / "lib").is_dir()
        status = "warn" if assembled else "fail"  # only needed to assemble the server once
        return Check("maven", status, str(exc), "install Maven (apt-get install maven)")
    return Check("maven", "ok", mvn)


def check_server(settings: Settings) -> tuple[Check, str | None]:
    """The server graphmem will use and its Bolt URI (None when there is none to reach)."""
    if settings.neo4j_uri:
        return Check("server", "ok", f"NEO4J_URI={settings.neo4j_uri}"), settings.neo4j_uri
    from graphmem.server import LocalServer

    status = LocalServer(settings.home).status()
    if not status.running:
        fix = f"graphmem server start{_home_flag(settings)} (or set NEO4J_URI and NEO4J_PASSWORD)"
        return Check("server", "fail", f"the managed server in {status.home} is not running", fix), None
    return Check("server", "ok", f"pid {status.pid}, Neo4j {status.neo4j_version}, {status.bolt_uri}"), (
        status.bolt_uri
    )


def check_bolt(uri: str, timeout: float = 3.0) -> Check:
    parsed = urlparse(uri)
    try:
        host, port = parsed.hostname or "127.0.0.1", parsed.port or 7687
    except ValueError as exc:  # a port that is no number or out of range
        return Check("bolt", "fail", f"{uri!r}: {exc}", "check NEO4J_URI (bolt://HOST:7687)")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        return Check(
            "bolt", "fail", f"{host}:{port} does not answer: {exc}", "start the server; check NEO4J_URI"
        )
    return Check("bolt", "ok", f"{host}:{port} answers")


def locate_model(mem: GraphMemory | None) -> dict[str, Path]:
    """The embedding model's files: what the embedder reports (``model_files()``), else the bundled model."""
    embedder = None if mem is None else mem.embedder
    files = getattr(embedder, "model_files", None)
    if not callable(files):  # no server to connect to, or an embedder that does not say: the default's
        from graphmem.embedding import OnnxEmbedder

        files = OnnxEmbedder().model_files
    return {Path(p).name: Path(p) for p in files()}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_model(mem: GraphMemory | None, locate: Callable[[GraphMemory | None], dict[str, Path]]) -> Check:
    fix = "reinstall graphmem's model package (pip install --force-reinstall graphmem) or set the model path"
    try:
        files = locate(mem)
    except (GraphMemError, ImportError, OSError) as exc:
        return Check("model", "fail", f"embedding model not found: {exc}", fix)
    if not files:
        return Check("model", "fail", "the model package holds no weights", fix)
    expected = getattr(getattr(mem, "embedder", None), "model_hashes", None)
    wanted: dict[str, str] = expected() if callable(expected) else {}
    parts, bad = [], []
    for name, path in files.items():
        if not path.is_file():
            bad.append(f"{name} missing")
            continue
        digest = sha256(path)
        parts.append(f"{name} sha256:{digest[:12]}")
        if name in wanted and wanted[name] != digest:
            bad.append(f"{name} hash differs from the expected {wanted[name][:12]}")
    if bad:
        return Check("model", "fail", "; ".join(bad), fix)
    return Check("model", "ok", ", ".join(parts))


_NAMED = re.compile(r"\b(?:CONSTRAINT|INDEX)\s+(\w+)\s+IF NOT EXISTS", re.IGNORECASE)


def expected_schema() -> set[str]:
    from graphmem.store.queries import schema_statements

    return {m.group(1) for _, text in schema_statements() for m in _NAMED.finditer(text)}


def check_schema(mem: GraphMemory, settings: Settings) -> Check:
    present = {r["name"] for r in mem.query("SHOW INDEXES YIELD name RETURN name")}
    present |= {r["name"] for r in mem.query("SHOW CONSTRAINTS YIELD name RETURN name")}
    missing = sorted(expected_schema() - present)
    if missing:
        return Check(
            "schema", "fail", f"missing: {', '.join(missing)}", f"graphmem init{_home_flag(settings)}"
        )
    return Check("schema", "ok", f"{len(expected_schema())} constraints and indexes")


OPTIONAL = {  # what each plugin adds; graphmem's own queries need neither
    "apoc": "APOC's functions in query() and the Browser",
    "gds": "associate's full pass on the server for tenants above associate_in_process_max",
}


def check_automation(mem: GraphMemory, settings: Settings) -> list[Check]:
    health = mem.automation.health()
    plugins = health.details.get("plugins", {})
    out = []
    for plugin in ("apoc", "gds"):
        if plugins.get(plugin):
            out.append(Check(plugin, "ok", "installed"))
        else:
            home = _home_flag(settings)
            fix = f"graphmem server stop{home} && graphmem server start{home} (reassembles the plugins)"
            out.append(
                Check(plugin, "warn", f"{plugin} is not installed (optional: {OPTIONAL[plugin]})", fix)
            )
    if "scheduler_not_running" in health.reasons:
        fix = f"run `graphmem worker{_home_flag(settings)}` beside the API (or mem.scheduler.start())"
        out.append(Check("worker", "warn", "no worker heartbeat: scheduled jobs do not run", fix))
    else:
        out.append(Check("worker", "ok", f"heartbeat {health.details.get('worker')}"))
    pending = sorted(job for job, state in health.details.get("due_dates", {}).items() if state == "pending")
    if pending:  # a dynamics parameter changed (stored, or the Settings preset): not yet applied to all
        fix = f"graphmem jobs run {pending[0]}{_home_flag(settings)} (marks every memory due, then runs)"
        what = f"{', '.join(pending)}: a parameter change is not applied to every memory yet"
        out.append(Check("dynamics", "warn", what, fix))
    else:
        out.append(Check("dynamics", "ok", "decay and review dates computed under the current parameters"))
    return out


KEYS_SCAN = 100_000
"""The most memories the search-key check reads (store order: node ids, mostly the oldest first;
cypher/memory_keys_missing): 300,000 db hits and 0.27-0.59 s when all have their keys, 600,000 and
0.46-0.93 s when none has (2 cores)."""


def check_search_keys(mem: GraphMemory, settings: Settings, user_id: str | None = None) -> Check:
    """Memories formation wrote without the search keys it has stored since 2026-12-01 (``search_text``, the
    context key, the event range): recall finds them by their bare words only until ``graphmem reembed``
    makes the keys (the rule the re-embedding keys them by: fragments/keyless_memory). ``user_id``: one
    tenant's only (tests)."""
    row = mem.runtime.store.read("memory_keys_missing", scan=KEYS_SCAN, user_id=user_id)[0]
    scanned, keyless = int(row["scanned"]), int(row["keyless"])
    partial = scanned >= KEYS_SCAN  # the store may hold more than was read
    if not keyless:
        read = f"the first {scanned:,} read, store order" if partial else f"{scanned:,} read"
        return Check("search_keys", "ok", f"no memory formation wrote lacks its search keys ({read})")
    count = f"at least {keyless:,} of the first {scanned:,}" if partial else f"{keyless:,} of {scanned:,}"
    what = (
        f"{count} memories lack the search keys formation stores since 2026-12-01 (search_text, context "
        "key, event range; written by an older graphmem): recall finds them by their bare words only"
    )
    fix = f"graphmem reembed{_home_flag(settings)} (re-embeds every memory, entity and fact, making the keys)"
    return Check("search_keys", "warn", what, fix)


def diagnose(
    settings: Settings, locate: Callable[[GraphMemory | None], dict[str, Path]] = locate_model
) -> list[Check]:
    """Every check, in order; checks that need the database are skipped when it cannot be reached."""
    checks = [check_java(settings), check_maven(settings)]
    server, uri = check_server(settings)
    checks.append(server)
    mem = None
    if uri is not None:
        bolt = check_bolt(uri)
        checks.append(bolt)
        if bolt.status == "ok":
            from graphmem.memory import GraphMemory

            try:
                mem = GraphMemory.connect(settings=settings)
            except GraphMemError as exc:
                checks.append(Check("connect", "fail", str(exc), "check NEO4J_URI / NEO4J_PASSWORD"))
    try:
        checks.append(check_model(mem, locate))
        if mem is not None:
            checks.append(check_schema(mem, settings))
            checks.extend(check_automation(mem, settings))
            checks.append(check_search_keys(mem, settings))
    finally:
        if mem is not None:
            mem.close()
    return checks


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)


def doctor(home: HomeOption = None, as_json: JsonOption = False) -> None:
    """Check Java, Maven, server, plugins, model files, schema, worker and search keys; print each fix."""
    checks = diagnose(settings_for(home))
    failed = any(c.status == "fail" for c in checks)
    if as_json:
        print_json({"ok": not failed, "checks": [asdict(c) for c in checks]})
    else:
        table = Table(title="graphmem doctor")
        for column in ("check", "", "detail", "fix"):
            table.add_column(column)
        mark = {"ok": "[green]ok[/]", "warn": "[yellow]warn[/]", "fail": "[red]FAIL[/]"}
        for c in checks:
            table.add_row(c.name, mark[c.status], escape(c.detail), escape(c.fix))
        console.print(table)
    if failed:
        raise typer.Exit(code=1)
