"""`graphmem facts ...` and `graphmem core ...` against the real server (mcp and api: own tests)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
from typer.testing import CliRunner

from graphmem.cli.main import app
from graphmem.server import LocalServer

runner = CliRunner()


def _json(args: list[str]) -> object:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_core_and_facts_commands(server: LocalServer, user_id: str) -> None:
    block = _json(["core", "set", "human", "Name: Alice", "-u", user_id, "--limit", "50"])
    assert isinstance(block, list) and block[0]["value"] == "Name: Alice"
    _json(["core", "append", "human", "Likes tea", "-u", user_id])
    replaced = _json(["core", "replace", "human", "tea", "coffee", "-u", user_id])
    assert isinstance(replaced, list) and replaced[0]["value"] == "Name: Alice\nLikes coffee"
    listed = _json(["core", "list", "-u", user_id])
    assert isinstance(listed, list) and [b["version"] for b in listed] == [3]
    refused = runner.invoke(app, ["core", "replace", "human", "juice", "water", "-u", user_id])
    assert refused.exit_code == 1 and "not found" in refused.output

    _json(["facts", "set", "location", "Paris", "-u", user_id])
    _json(["facts", "set", "location", "Lisbon", "-u", user_id])
    fact = _json(["facts", "get", "location", "-u", user_id])
    assert isinstance(fact, dict) and fact["value"] == "Lisbon"
    history = _json(["facts", "history", "location", "-u", user_id])
    assert isinstance(history, list) and [f["value"] for f in history] == ["Paris", "Lisbon"]
    before = runner.invoke(app, ["facts", "get", "location", "-u", user_id, "--as-of", "2000-01-01"])
    assert before.exit_code == 4
    assert "no value of 'location' as of 2000-01-01 00:00 UTC" in before.output  # not "no fact": it has one
    table = runner.invoke(app, ["facts", "history", "location", "-u", user_id])
    assert table.exit_code == 0 and "Lisbon" in table.output
    listed = _json(["facts", "list", "-u", user_id])
    assert isinstance(listed, list) and [(f["key"], f["value"]) for f in listed] == [("location", "Lisbon")]
    assert _json(["facts", "list", "-u", user_id, "--as-of", "2000-01-01"]) == []
    shown = runner.invoke(app, ["facts", "list", "-u", user_id])
    assert shown.exit_code == 0 and "Lisbon" in shown.output
    # a value set to start later is a plan: the current value shows until when it holds
    planned = runner.invoke(
        app, ["facts", "set", "location", "Oslo", "-u", user_id, "--valid-from", "2199-01-01"]
    )
    assert planned.exit_code == 0 and "(planned from 2199-01-01 00:00, version 3)" in planned.output, (
        planned.output
    )
    now = runner.invoke(app, ["facts", "get", "location", "-u", user_id])
    assert now.exit_code == 0 and "Lisbon" in now.output and "until 2199-01-01 00:00" in now.output, (
        now.output
    )
    assert "2199-01-01" in runner.invoke(app, ["facts", "list", "-u", user_id]).output

    versions = _json(["core", "history", "human", "-u", user_id])
    assert isinstance(versions, list) and [b["version"] for b in versions] == [1, 2, 3]
    people = runner.invoke(app, ["core", "history", "human", "-u", user_id])
    assert people.exit_code == 0 and "Likes tea" in people.stdout


def test_fact_valid_time_and_known_at(server: LocalServer, user_id: str) -> None:
    _json(["facts", "set", "city", "Paris", "-u", user_id, "--valid-from", "2024-01-01"])
    between = datetime.now(UTC)
    time.sleep(0.05)
    _json(["facts", "set", "city", "Lisbon", "-u", user_id, "--valid-from", "2025-01-01"])
    then = _json(["facts", "get", "city", "-u", user_id, "--as-of", "2024-06-01"])
    assert isinstance(then, dict) and then["value"] == "Paris"
    now = _json(["facts", "get", "city", "-u", user_id, "--as-of", "2025-06-01"])
    assert isinstance(now, dict) and now["value"] == "Lisbon"
    known = ["--as-of", "2025-06-01", "--known-at", between.isoformat()]
    recorded_then = _json(["facts", "get", "city", "-u", user_id, *known])
    assert isinstance(recorded_then, dict) and recorded_then["value"] == "Paris"  # Lisbon not yet recorded


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_api_command_serves(server: LocalServer, user_id: str) -> None:
    """`graphmem api` as a subprocess: loopback, the key from $GRAPHMEM_API_KEY, the routes answering."""
    cli = str(Path(sys.executable).with_name("graphmem"))
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEM_API_KEY"}
    missing = subprocess.run([cli, "api"], env=env, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 1 and "GRAPHMEM_API_KEY" in missing.stderr

    port = _free_port()
    env["GRAPHMEM_API_KEY"] = "cli-test-key"
    proc = subprocess.Popen(
        [cli, "api", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 600  # the API loads the model before it listens
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                health = httpx.get(f"{base}/health", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "graphmem api did not answer"
                time.sleep(0.5)
        assert health.status_code == 200 and health.json()["status"] in {"healthy", "degraded"}
        with httpx.Client(base_url=base, timeout=120) as client:  # the first write loads the embedder
            key = {"X-API-Key": "cli-test-key"}
            created = client.post(
                f"/users/{user_id}/memories", json={"content": "Served by the CLI"}, headers=key
            )
            assert created.status_code == 201, created.text
            exported = client.get(f"/users/{user_id}/export", headers=key).json()
            assert [m["content"] for m in exported["memories"]] == ["Served by the CLI"]
            assert client.get(f"/users/{user_id}/export").status_code == 401
            assert "graphmem dashboard" in client.get("/dashboard").text
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if proc.stderr:
            proc.stderr.close()
