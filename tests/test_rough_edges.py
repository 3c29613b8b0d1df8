"""Rough edges of the first hour (issue 17): markup in CLI tables, restore by one id or many and unknown ids,
the worker hint, deterministic example keys."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from graphmem import GraphMemory, MemoryNotFound
from graphmem.cli.main import _hits_table, app
from graphmem.models import Explanation, Hit, Memory

ROOT = Path(__file__).parents[1]


def test_hit_tables_show_brackets_in_user_text() -> None:
    memory = Memory(
        id="m1", user_id="u", content="Buy milk [urgent] tomorrow [redacted]", created_at=datetime.now(UTC)
    )
    hit = Hit(
        memory=memory,
        score=1.0,
        explanation=Explanation(search_level="hybrid", score_type="rrf", raw_score=1),
    )
    console = Console(record=True, width=200)
    console.print(_hits_table([hit], "what [should] I buy"))
    text = console.export_text()
    assert "Buy milk [urgent] tomorrow [redacted]" in text
    assert "what [should] I buy" in text


def test_restore_takes_one_id_or_many_and_names_an_unknown_one(mem: GraphMemory, user_id: str) -> None:
    a = mem.remember("first note", user_id=user_id)
    b = mem.remember("second note", user_id=user_id)
    mem.forget(a.id, user_id=user_id)
    mem.forget(b.id, user_id=user_id)
    assert mem.jobs.restore(a.id, user_id=user_id) == [a.id]  # one id as a plain string
    with pytest.raises(MemoryNotFound) as caught:
        mem.jobs.restore([b.id, "no-such-memory"], user_id=user_id)
    assert caught.value.memory_id == "no-such-memory"
    with pytest.raises(MemoryNotFound):
        mem.jobs.restore(a.id, user_id=f"{user_id}-other")  # another tenant's memory is not found


def test_jobs_restore_command(mem: GraphMemory, user_id: str) -> None:
    m = mem.remember("a note to bring back", user_id=user_id)
    mem.forget(m.id, user_id=user_id)
    result = CliRunner().invoke(app, ["jobs", "restore", m.id, "--user", user_id])
    assert result.exit_code == 0, result.output
    assert m.id in result.output
    failed = CliRunner().invoke(app, ["jobs", "restore", "no-such-memory", "--user", user_id])
    assert failed.exit_code == 1
    assert "graphmem jobs restore" in CliRunner().invoke(app, ["memory", "forget", "--help"]).output


def test_jobs_list_and_health_say_how_to_start_a_worker(mem: GraphMemory) -> None:
    if "scheduler_not_running" not in mem.automation.health().reasons:
        pytest.skip("a worker is running on the shared server right now")
    for command in (["jobs", "list"], ["health"]):
        output = CliRunner().invoke(app, command, terminal_width=400).output
        assert "graphmem worker" in output, command


def test_langgraph_example_keys_are_the_same_in_every_process() -> None:
    probe = (
        "import importlib.util,sys; s=importlib.util.spec_from_file_location('x', sys.argv[1]);"
        "m=importlib.util.module_from_spec(s); s.loader.exec_module(m); print(m.note_key('my bike is red'))"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", probe, str(ROOT / "examples" / "langgraph_agent.py")],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert len(keys) == 1 and keys != {""}
