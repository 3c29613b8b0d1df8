"""`graphmem doctor` on the healthy shared set-up and on broken ones (no server in the home, no model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

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
