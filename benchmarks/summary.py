"""Collect the benchmark results into benchmarks/results/SUMMARY.md and the README's Benchmarks block.

    .venv/bin/python benchmarks/summary.py

SUMMARY.md: the machine stamp, how to reproduce, the steps of the last `benchmarks/run.py` (if any), then
every benchmarks/results/<name>.md in a fixed order (unknown names after, alphabetically). A result in
ORDER with a JSON file but no markdown gets a table of its top-level numbers. The README block between
``<!-- bench:start -->`` and ``<!-- bench:end -->`` is replaced by the stamp and each section's headline
tables (marked ``<!-- headline -->``, else its first table), with a link to the full summary.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from machine import stamp

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"
DOCS = ROOT / "docs" / "benchmarks.md"
FRONT = {"recall_quality_quick"}  # the README shows the newest LoCoMo run; docs/benchmarks.md has the rest
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
ORDER = [
    "scale",
    "scale_quick",
    "recall_quality",
    "recall_quality_quick",
    "longmemeval",
    "longmemeval_s",
    "baselines",
    "peers",
    "dynamics_sim",
    "dynamics_sim_quick",
    "entity_precision",
    "ingest",
    "jobs_throughput",
]
SKIP = {"SUMMARY", "bench_run"}
SUMMARY_ONLY = {
    "scale_quick",
    "ingest",
    "jobs_throughput",
    "conversation_ingest",
    "scale_recall",
    "recall_quality_quick",
    "dynamics_sim_quick",
}  # not in README
TITLES = {
    "recall_quality": "Recall quality on LoCoMo (`benchmarks/locomo.py`)",
    "dynamics_sim": "Memory dynamics simulation (`benchmarks/dynamics_sim.py`)",
    "entity_precision": "Entity extraction precision (`benchmarks/entity_precision.py`)",
    "ingest": "Batched ingestion (`benchmarks/ingest.py`)",
    "jobs_throughput": "Job throughput (`benchmarks/jobs_throughput.py`)",
}


def _scalars(data: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict) and key not in ("machine",):
            out += _scalars(value, f"{prefix}{key}.")
        elif isinstance(value, int | float | str | bool) and key not in ("command", "when"):
            out.append((f"{prefix}{key}", value))
    return out


def section(name: str) -> str | None:
    """The markdown of one result: its .md file, else a table of its JSON's top-level numbers."""
    md, js = RESULTS / f"{name}.md", RESULTS / f"{name}.json"
    if md.exists():
        text = md.read_text().strip()
    elif js.exists() and name in ORDER:
        try:
            data = json.loads(js.read_text())
        except json.JSONDecodeError:
            return None
        rows = _scalars(data) if isinstance(data, dict) else []
        if not rows:
            return None
        text = "| key | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows[:40])
    else:
        return None
    if not text.startswith("#"):
        text = f"## {TITLES.get(name, name)}\n\n{text}"
    elif name not in ORDER:  # a one-off result (an A/B, a repeat): its file tells it from the standard run's
        first, _, rest = text.partition("\n")
        text = f"{first} (`{name}.md`)\n{rest}"
    return text


def names() -> list[str]:
    found = {p.stem for p in RESULTS.glob("*.md")} | {
        p.stem for p in RESULTS.glob("*.json") if p.stem in ORDER
    }
    found -= SKIP
    return [n for n in ORDER if n in found] + sorted(found - set(ORDER))


def headline(text: str) -> str:
    """A section's title and its headline tables: those after a ``<!-- headline -->`` line, else the first."""
    lines = text.splitlines()
    title = next((ln.lstrip("#").strip() for ln in lines if ln.startswith("#")), "")
    marked = [i + 1 for i, ln in enumerate(lines) if ln.strip() == "<!-- headline -->"]
    starts = marked or [next((i for i, ln in enumerate(lines) if ln.startswith("|")), len(lines))]
    tables = []
    for start in starts:
        label = next((ln for ln in reversed(lines[:start]) if ln.startswith("###")), None) if marked else None
        table = []
        for ln in lines[start:]:
            if ln.startswith("|") and len(table) < 16:
                table.append(ln)
            elif table and not ln.startswith("|"):
                break
        tables.append("\n".join([f"{label.lstrip('#').strip()}:", "", *table] if label else table))
    return "\n\n".join([f"#### {title}", *tables])


def stamp_lines() -> list[str]:
    s = stamp(_neo4j_version())
    m = s["machine"]
    return [
        f"Machine: {m['cpus']} CPUs ({m['cpu_model']}), {m['ram_gib']} GiB RAM, Python {m['python']}, "
        f"Neo4j {m['neo4j']}, {m['platform']}; summary written {s['when']}.",
        "Reproduce: `make bench` (quick, a few minutes) or `make bench-full` (all sizes, about two hours "
        "here); each result below names the exact command that produced it.",
    ]


def _neo4j_version() -> str | None:
    """The Neo4j version(s) the headline results ran on (results of several rounds may mix two servers)."""
    found: list[str] = []
    for name in ("recall_quality", "scale"):
        path = RESULTS / f"{name}.json"
        if path.exists():
            data = json.loads(path.read_text())
            for row in [data, *data.get("sizes", [])]:
                version = row.get("machine", {}).get("neo4j")
                if version and str(version) not in found:
                    found.append(str(version))
    return " and ".join(found) if found else None


def steps_table() -> list[str]:
    path = RESULTS / "bench_run.json"
    if not path.exists():
        return []
    run = json.loads(path.read_text())
    rows = [f"| {s['name']} | {s['status']} | {s['seconds']} | `{s['command']}` |" for s in run["steps"]]
    return [
        f"Last `benchmarks/run.py --{run['mode']}`:",
        "",
        "| step | status | seconds | command |",
        "|---|---|---|---|",
        *rows,
    ]


def replace_block(text: str, block: str) -> str:
    """``text`` with everything from the start marker to the end marker (both included) replaced."""
    before, rest = text.split(START, 1)
    return before + block + rest.split(END, 1)[1]


def main() -> None:
    sections = {n: s for n in names() if (s := section(n))}
    head = ["# Benchmark summary", "", *stamp_lines(), "", *steps_table()]
    body = "\n\n".join(sections.values())
    (RESULTS / "SUMMARY.md").write_text("\n".join(head) + "\n\n" + body + "\n")
    pages = [
        (DOCS, "../benchmarks/results/SUMMARY.md", lambda n: n not in SUMMARY_ONLY),
        (README, "docs/benchmarks.md", lambda n: n in FRONT),
    ]
    for page, link, keep in pages:
        text = page.read_text() if page.exists() else ""
        if START in text and END in text:
            block = [
                START,
                *stamp_lines(),
                f"More tables and plots: [{link.rsplit('/', 1)[-1]}]({link}).",
                "",
                "\n\n".join(headline(s) for n, s in sections.items() if keep(n)),
                END,
            ]
            page.write_text(replace_block(text, "\n".join(block)))
    print(f"wrote {RESULTS / 'SUMMARY.md'} ({len(sections)} sections)")


if __name__ == "__main__":
    main()
