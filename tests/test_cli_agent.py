"""`graphmem facts ...` and `graphmem core ...` against the real server (mcp and api: own tests)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from graphmem.cli import app
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
    table = runner.invoke(app, ["facts", "history", "location", "-u", user_id])
    assert table.exit_code == 0 and "Lisbon" in table.output
