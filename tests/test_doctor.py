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
