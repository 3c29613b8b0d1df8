"""The benchmark entry points' own logic: step skipping and failure, the summary's README block."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import run
import summary


def _progress() -> Progress:
    return Progress(console=Console(file=io.StringIO()))


def test_a_step_without_its_data_is_skipped_visibly() -> None:
    out = io.StringIO()
    progress = Progress(console=Console(file=out))
    step = run.Step("absent", ["-c", "raise SystemExit(0)"], needs=["no/such/file.json"])
    assert run.run_step(step, progress) == ("skipped", 0.0)
    assert "skipped: data not found" in out.getvalue()


def test_a_failing_step_is_reported_failed_and_a_passing_one_ok(tmp_path: Path, monkeypatch: object) -> None:
    monkeypatch.setattr(run, "LOGS", tmp_path)  # type: ignore[attr-defined]
    failed, _ = run.run_step(run.Step("bench-test-fail", ["-c", "raise SystemExit(3)"]), _progress())
    ok, _ = run.run_step(run.Step("bench-test-ok", ["-c", "print('fine')"]), _progress())
    assert (failed, ok) == ("failed", "ok")
    assert "fine" in (tmp_path / "bench-test-ok.log").read_text()


def test_every_step_command_names_an_existing_script() -> None:
    for steps in run.STEPS.values():
        for step in steps:
            assert (run.ROOT / step.argv[0]).exists(), step


def test_the_readme_block_is_replaced_between_the_markers_only() -> None:
    text = f"intro\n{summary.START}\nold table\n{summary.END}\nrest\n"
    new = summary.replace_block(text, f"{summary.START}\nnew\n{summary.END}")
    assert new == f"intro\n{summary.START}\nnew\n{summary.END}\nrest\n"


def test_headline_takes_the_marked_tables_with_their_headings() -> None:
    md = "## Title\n\n### A\n| a |\n|---|\n| 1 |\n\n### B\n<!-- headline -->\n| b |\n|---|\n| 2 |\n\ntext\n"
    out = summary.headline(md)
    assert out.startswith("#### Title")
    assert "| b |" in out and "| a |" not in out and "B:" in out
