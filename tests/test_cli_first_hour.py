"""The CLI's first hour (probe findings): configuration mistakes and bad `--out` paths are one `error:`
line, ids are whole at 80 columns, `jobs restore` says what it did, `core set` keeps what was not given,
`remember -` reads stdin, `api --port` is checked up front, and looking up a name that does not exist
exits 4."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from graphmem import AsyncGraphMemory, ConfigurationError, GraphMemory, MemoryNotFound
from graphmem.cli import users
from graphmem.cli.main import app

runner = CliRunner()
NARROW = {"COLUMNS": "80"}


def _invoke(args: list[str], **kwargs: Any) -> Result:
    return runner.invoke(app, args, **kwargs)


def _one_error_line(result: Result, starts: str) -> None:
    """A refusal: exit 1 through typer (no traceback), the message on one line starting with ``starts``."""
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: {starts}"), result.output


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("NEO4J_URI", "localhost:7687"),  # no scheme: the driver's ConfigurationError
        ("NEO4J_URI", "http://127.0.0.1:7474"),  # the driver's HTTP preview: ModuleNotFoundError aiohttp
        ("NEO4J_URI", "bolt://127.0.0.1:abc"),  # a port that is no number: ValueError at connect
        ("GRAPHMEM_CONNECT_TIMEOUT", "abc"),
        ("GRAPHMEM_CONNECT_TIMEOUT", "0"),
        ("GRAPHMEM_RECALL_EFFECTS", "bogus"),
        ("GRAPHMEM_GDS_ENABLED", "maybe"),
    ],
)
def test_configuration_mistakes_are_one_error_line(user_id: str, variable: str, value: str) -> None:
    env = {variable: value, "NEO4J_PASSWORD": "not-used", "COLUMNS": "60"}  # a short line: no wrapping
    _one_error_line(_invoke(["recall", "x", "-u", user_id], env=env), f"{variable}: ")
    if variable.startswith("GRAPHMEM_"):
        _one_error_line(_invoke(["doctor"], env=env), f"{variable}: ")


async def _connect_async(uri: str) -> None:
    await AsyncGraphMemory.connect(uri, ("neo4j", "not-used"))


def test_a_bad_uri_is_a_configuration_error_of_the_python_api() -> None:
    for uri in ("localhost:7687", "http://127.0.0.1:7474", "bolt://127.0.0.1:99999"):
        with pytest.raises(ConfigurationError, match=r"^uri: "):
            GraphMemory.connect(uri, ("neo4j", "not-used"))
        with pytest.raises(ConfigurationError, match=r"^uri: "):  # the async API's own driver too
            asyncio.run(_connect_async(uri))


def test_doctor_reports_a_bad_uri_as_failed_checks() -> None:
    result = _invoke(["doctor", "--json"], env={"NEO4J_URI": "bolt://127.0.0.1:abc"})
    assert isinstance(result.exception, SystemExit) and result.exit_code == 1, result.output
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    assert checks["bolt"]["status"] == "fail" and "abc" in checks["bolt"]["detail"]


def test_out_paths_are_checked_before_the_work(
    user_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_work(home: object) -> None:
        raise AssertionError("the export ran before the path was checked")

    monkeypatch.setattr(users, "_connect", no_work)
    _one_error_line(_invoke(["export", user_id, "--out", str(tmp_path)]), "--out: ")
    _one_error_line(_invoke(["export", user_id, "--out", str(tmp_path / "nowhere" / "x.json")]), "--out: ")
    as_of = datetime.now(UTC).isoformat()
    args = ["snapshot", "-u", user_id, "--as-of", as_of, "--out"]
    _one_error_line(_invoke([*args, str(tmp_path)]), "--out: ")
    _one_error_line(_invoke([*args, str(tmp_path / "nowhere" / "x.json")]), "--out: ")


def test_snapshot_out_is_utf8_under_a_c_locale(mem: GraphMemory, user_id: str, tmp_path: Path) -> None:
    mem.remember("Café 東京 🐶", user_id=user_id)
    target = tmp_path / "snap.json"
    as_of = (datetime.now(UTC) + timedelta(minutes=1)).isoformat()
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "COLUMNS": "200"}
    command = [sys.executable, "-m", "graphmem.cli.main", "snapshot", "-u", user_id, "--as-of", as_of]
    done = subprocess.run(
        [*command, "--out", str(target)],
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert "Café 東京 🐶" in target.read_text(encoding="utf-8")


def test_ids_are_whole_at_80_columns(mem: GraphMemory, user_id: str) -> None:
    long = "I walked the dog Rex along the river this morning and then we had breakfast at the café " * 3
    ids = [mem.remember(f"{n}: {long}", user_id=user_id).id for n in range(3)]
    listed = _invoke(["memory", "list", "-u", user_id, "-n", "2"], env=NARROW)
    assert listed.exit_code == 0, listed.output
    assert ids[2] in listed.stdout and ids[1] in listed.stdout
    assert f"--after {ids[1]}" in listed.stdout  # the next page's hint on one line
    audit = _invoke(["audit", "-u", user_id, "-n", "1"], env=NARROW)
    assert audit.exit_code == 0, audit.output
    event = mem.temporal.audit_log(user_id=user_id, limit=1)[0]
    assert audit.stdout.count(event.id) == 2, audit.stdout  # in the table and whole in the `more:` hint
    assert f"--after {event.id}" in audit.stdout
    made = _invoke(["keys", "create", "--user", user_id, "--json"])
    key_id = json.loads(made.stdout)["id"]
    try:
        keys = _invoke(["keys", "list"], env=NARROW)
        assert keys.exit_code == 0 and key_id in keys.stdout, keys.stdout
    finally:
        assert _invoke(["keys", "revoke", key_id]).exit_code == 0


def test_restore_says_which_ids_were_restored_and_why_others_were_not(mem: GraphMemory, user_id: str) -> None:
    active = mem.remember("still active", user_id=user_id)
    gone = mem.remember("forgotten for now", user_id=user_id)
    mem.forget(gone.id, user_id=user_id)
    result = _invoke(["jobs", "restore", active.id, gone.id, "-u", user_id], env={"COLUMNS": "60"})
    _one_error_line(result, "not restored: ")
    assert f"'{active.id}' is active, not forgotten" in result.output
    assert f"restored 1: {gone.id}" in result.output
    assert mem.memories.get(gone.id, user_id=user_id).status == "active"
    with pytest.raises(MemoryNotFound, match="'no-such-memory' not found") as caught:
        mem.jobs.restore([active.id, "no-such-memory"], user_id=user_id)
    assert caught.value.memory_id == active.id and "none restored" in str(caught.value)


def _block(args: list[str]) -> dict[str, Any]:
    result = _invoke([*args, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout)[0])


def test_core_set_keeps_the_settings_not_given(user_id: str) -> None:
    first = ["core", "set", "ro", "fixed", "-u", user_id, "--read-only", "--limit", "100"]
    _block([*first, "--description", "the rules"])
    kept = _block(["core", "set", "ro", "changed", "-u", user_id])
    assert (kept["value"], kept["read_only"], kept["limit"], kept["description"]) == (
        "changed",
        True,
        100,
        "the rules",
    )
    refused = _invoke(["core", "append", "ro", "more", "-u", user_id])  # the agent's edit: still read-only
    assert refused.exit_code == 1 and "read-only" in refused.output
    writable = _block(["core", "set", "ro", "changed", "-u", user_id, "--writable"])
    assert writable["read_only"] is False and writable["limit"] == 100
    fresh = _block(["core", "set", "new", "x", "-u", user_id])
    assert (fresh["read_only"], fresh["limit"], fresh["description"]) == (False, 2000, "")


def test_remember_dash_reads_stdin_and_api_checks_its_port(mem: GraphMemory, user_id: str) -> None:
    result = _invoke(["remember", "-", "-u", user_id, "--json"], input="Café from stdin\n")
    assert result.exit_code == 0, result.output
    stored = mem.memories.get(json.loads(result.stdout)["id"], user_id=user_id)
    assert stored.content == "Café from stdin"
    assert "stdin" in _invoke(["remember", "--help"], env={"COLUMNS": "200"}).output
    for port in ("99999", "0"):
        _one_error_line(_invoke(["api", "--port", port], env={"COLUMNS": "200"}), "--port: ")


def test_looking_up_a_name_that_does_not_exist_exits_4(user_id: str) -> None:
    for args in (
        ["topics", "show", "nosuch", "-u", user_id],
        ["facts", "history", "nosuch", "-u", user_id],
        ["core", "history", "nosuch", "-u", user_id],
    ):
        result = _invoke(args, env={"COLUMNS": "200"})
        assert result.exit_code == 4 and "'nosuch'" in result.output, (args, result.output)
        as_json = _invoke([*args, "--json"])
        assert as_json.exit_code == 4 and json.loads(as_json.stdout) == [], args
