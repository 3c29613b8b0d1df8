"""`graphmem doctor` on the healthy shared set-up and on broken ones (no server in the home, no model)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from conftest import disposable
from typer.testing import CliRunner

from graphmem import GraphMemory, OnnxEmbedder
from graphmem.cli import doctor as doctor_module
from graphmem.cli.main import app
from graphmem.config import Settings
from graphmem.server import LocalServer
from graphmem.store import embedding_space


def _by_name(checks: list[doctor_module.Check]) -> dict[str, doctor_module.Check]:
    return {c.name: c for c in checks}


def test_doctor_passes_on_the_running_set_up(server: LocalServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    result = CliRunner().invoke(app, ["doctor", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    checks = {c["name"]: c for c in report["checks"]}
    assert report["ok"] is True
    for name in ("java", "maven", "server", "bolt", "model", "schema"):
        assert checks[name]["status"] == "ok", checks[name]
    assert checks["search_keys"]["status"] in {"ok", "warn"}  # memories without their keys: a warning
    assert checks["search_keys"]["detail"], checks["search_keys"]
    assert "sha256:" in checks["model"]["detail"]
    assert checks["worker"]["status"] in {
        "ok",
        "warn",
    }  # no worker in the test run is a warning, not a failure
    assert checks["dynamics"]["status"] in {"ok", "warn"}  # a pending marking is a warning


def test_doctor_names_the_fix_for_a_stopped_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    result = CliRunner().invoke(app, ["doctor", "--home", str(tmp_path), "--json"])
    assert result.exit_code == 1
    checks = {c["name"]: c for c in json.loads(result.output)["checks"]}
    assert checks["server"]["status"] == "fail"
    assert checks["server"]["fix"].startswith(f"graphmem server start --home {tmp_path}")
    assert "schema" not in checks  # nothing to ask without a server


def test_doctor_reports_a_wrong_uri(monkeypatch: pytest.MonkeyPatch) -> None:
    checks = _by_name(doctor_module.diagnose(Settings(neo4j_uri="bolt://127.0.0.1:1", neo4j_password="x")))
    assert checks["bolt"].status == "fail"
    assert "NEO4J_URI" in checks["bolt"].fix


def test_doctor_names_the_fix_for_a_missing_model(
    server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)

    # the package that carries the model files is absent (the real lookup, pointed at a missing package)
    monkeypatch.setattr("graphmem.embedding.CARRIER", "graphmem_no_such_model_carrier")
    checks = _by_name(doctor_module.diagnose(Settings(), locate=doctor_module.locate_model))
    assert checks["model"].status == "fail"
    assert "not installed" in checks["model"].detail and "reinstall" in checks["model"].fix
    assert checks["schema"].status == "ok"  # the other checks still ran


def test_doctor_catches_a_changed_model_file(tmp_path: Path) -> None:
    weights = tmp_path / "model.onnx"
    weights.write_bytes(b"not the model")

    class Embedder:
        def model_files(self) -> list[Path]:
            return [weights]

        def model_hashes(self) -> dict[str, str]:
            return {"model.onnx": "0" * 64}

    class Mem:
        embedder = Embedder()

    check = doctor_module.check_model(Mem(), doctor_module.locate_model)  # type: ignore[arg-type]
    assert check.status == "fail" and "hash differs" in check.detail


def test_doctor_warns_of_a_parameter_change_not_yet_applied(
    server: LocalServer, embedder: OnnxEmbedder
) -> None:
    """A process started with another dynamics preset (no stored configuration) has not yet made the memories
    due under it: doctor says so and names the command that applies it."""
    config_id = disposable(f"test-{uuid.uuid4()}")
    with GraphMemory.connect(settings=Settings(automation_config_id=config_id), embedder=embedder) as mem:
        doctor = disposable(f"doctor-{uuid.uuid4()}")
        mem.remember("I adopted a dog named Rex", user_id=doctor)  # a job skips a user of no data
        mem.jobs.run("promote", user_id=doctor)  # the basis of "balanced"
        assert _by_name(doctor_module.check_automation(mem, mem.runtime.settings))["dynamics"].status == "ok"
    settings = Settings(automation_config_id=config_id, dynamics_preset="aggressive")
    with GraphMemory.connect(settings=settings, embedder=embedder) as mem:
        dynamics = _by_name(doctor_module.check_automation(mem, settings))["dynamics"]
    assert (
        dynamics.status == "warn" and "decay" in dynamics.detail and "graphmem jobs run decay" in dynamics.fix
    )


def test_doctor_warns_of_memories_without_search_keys(mem: GraphMemory, embedder: OnnxEmbedder) -> None:
    """A memory formation wrote before it stored its search keys (graphmem before 2026-12-01) is found by its
    bare words only: doctor warns with the count and names `graphmem reembed`, which makes the keys (the
    rule both use: fragments/keyless_memory). Read for the test's own tenant (the shared server holds others);
    the whole store's check runs in the command (test_doctor_passes_on_the_running_set_up)."""
    user = disposable(f"lab-r60-doc-{uuid.uuid4()}")
    settings = mem.runtime.settings
    assert doctor_module.check_search_keys(mem, settings, user).status == "ok"  # no memories yet
    mem.add_messages(
        [
            {"role": "user", "name": "Sam", "content": "We adopted a puppy called Rex, a border collie."},
            {"role": "user", "name": "Kim", "content": "A collie! Those need long walks."},
        ],
        user_id=user,
        session_id="s1",
    )
    mem.remember("I work at Initech.", user_id=user)
    keyed = doctor_module.check_search_keys(mem, settings, user)
    assert keyed.status == "ok" and keyed.detail.endswith("lacks its search keys (3 read)"), keyed
    mem.runtime.store.run_statement(  # the shape graphmem wrote before it stored the keys
        "MATCH (m:Memory {user_id: $u}) WHERE m.session_id = 's1' "
        "REMOVE m.search_text, m.context_text, m.event_start, m.event_end, m.context_embedding",
        {"u": user},
    )
    bare = doctor_module.check_search_keys(mem, settings, user)
    assert bare.status == "warn" and bare.detail.startswith("2 of 3 memories lack the search keys"), bare
    assert bare.fix.startswith(f"graphmem reembed{doctor_module._home_flag(settings)} (")
    embedding_space.reembed(mem.runtime.store, embedder, user_id=user)  # what `graphmem reembed` runs
    assert doctor_module.check_search_keys(mem, settings, user).status == "ok"


def test_doctor_says_at_least_when_it_reads_only_part_of_the_store(
    mem: GraphMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check reads a bounded number of memories (KEYS_SCAN): beyond it the count is a lower bound."""
    user = disposable(f"lab-r60-doc-{uuid.uuid4()}")
    for text in ("I adopted a dog named Rex.", "I live in Leeds."):
        mem.remember(text, user_id=user)
    mem.runtime.store.run_statement("MATCH (m:Memory {user_id: $u}) REMOVE m.search_text", {"u": user})
    monkeypatch.setattr(doctor_module, "KEYS_SCAN", 1)
    check = doctor_module.check_search_keys(mem, mem.runtime.settings, user)
    assert check.status == "warn" and check.detail.startswith("at least 1 of the first 1 memories lack")
    mem.runtime.store.run_statement("MATCH (m:Memory {user_id: $u}) SET m.search_text = ''", {"u": user})
    check = doctor_module.check_search_keys(mem, mem.runtime.settings, user)
    assert check.status == "ok" and check.detail.endswith("(the first 1 read, store order)"), check
