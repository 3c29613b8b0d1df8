"""The benchmark entry points' own logic: step skipping and failure, the summary's README block."""

from __future__ import annotations

import ast
import io
import re
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import run
import summary
from cypher_text import assigned


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


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def test_what_a_benchmark_takes_from_another_exists() -> None:
    """``module.name`` in one benchmark script, ``module`` being another script, names something defined
    there (scale.py once called a helper jobs_throughput no longer had; only a 10k run found it)."""
    trees = {p.stem: ast.parse(p.read_text()) for p in (run.ROOT / "benchmarks").glob("*.py")}
    defined = {name: _top_level_names(tree) for name, tree in trees.items()}
    imported = {  # the scripts each script imports as modules (`import jobs_throughput`)
        name: {a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names} & trees.keys()
        for name, tree in trees.items()
    }
    missing = [
        (name, node.value.id, node.attr)
        for name, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in imported[name]
        and node.attr not in defined[node.value.id]
    ]
    assert sum(len(v) for v in imported.values()) > 3  # the check sees the imports it is about
    assert missing == []


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


def test_scale_reset_undoes_every_memory_property_decay_and_forget_write() -> None:
    """scale.py times decay's first run on a kept store, so its RESET must take back every Memory property
    the decay and forget statements write: a property left behind (decay_due once was) makes the next run's
    "first" run skip the memories it anchors (the published 1M figure had evaluated 105,143 of 1,000,000)."""
    tree = ast.parse((run.ROOT / "benchmarks" / "scale.py").read_text())
    reset = next(
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "RESET" for t in node.targets)
        and isinstance(node.value, ast.Constant)
    )
    removed = set(re.findall(r"\bm\.(\w+)", reset[reset.index("REMOVE") :]))
    restored = assigned(reset[: reset.index("REMOVE")])
    statements = ["dynamics_decay", "forget_soft", "forget_capacity", "forget_hard", "forget_edges"]
    written = set().union(*(assigned((run.ROOT / "cypher" / f"{s}.cypher").read_text()) for s in statements))
    assert {"decay_due", "strength_rate", "forgotten_at", "status"} <= written  # the parse sees the writes
    assert written - removed - restored == set()
