"""Instant start: commands that do not embed load neither the model runtime nor the facade they do not need.

Each command runs in a fresh interpreter (the test process has everything loaded already) and reports which
heavy modules it imported; timings are not asserted here (they belong in benchmarks), imports are.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from graphmem.server import LocalServer

MODEL_RUNTIMES = ("torch", "onnxruntime", "sentence_transformers", "transformers")

_PROBE = """
import json, sys
from typer.testing import CliRunner
from graphmem.cli.main import app
result = CliRunner().invoke(app, sys.argv[1:])
heavy = sorted({m.split(".")[0] for m in sys.modules} & {
    "torch", "onnxruntime", "sentence_transformers", "transformers", "neo4j", "networkx", "fastapi"})
print(json.dumps({"exit": result.exit_code, "heavy": heavy, "output": result.output[-2000:]}))
"""


def _run(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=120, check=True
    )
    out: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_import_of_the_cli_loads_no_driver_and_no_model() -> None:
    report = _run("--help")
    assert report["exit"] == 0
    assert report["heavy"] == [], report


def test_server_status_loads_no_facade_and_no_model(server: LocalServer) -> None:
    report = _run("server", "status", "--json")
    assert report["exit"] == 0
    assert set(report["heavy"]) <= {"neo4j"}, report  # it may ask Bolt whether the server answers


@pytest.mark.parametrize("command", [["health"], ["jobs", "list"]])
def test_commands_that_do_not_embed_load_no_model(server: LocalServer, command: list[str]) -> None:
    report = _run(*command)
    assert report["exit"] in (0, 2), report  # health exits 2 when degraded (no worker here)
    heavy = report["heavy"]
    assert isinstance(heavy, list)
    assert not set(heavy) & {*MODEL_RUNTIMES, "networkx", "fastapi"}, report
