"""Run the benchmark steps one after another, then write the summary: the one entry point behind `make bench`.

    .venv/bin/python benchmarks/run.py --quick    # a few minutes (make bench)
    .venv/bin/python benchmarks/run.py --full     # all sizes, full quality, 30-day dynamics (make bench-full)
    .venv/bin/python benchmarks/run.py --quick --only scale,entity_precision
    .venv/bin/python benchmarks/run.py --full --list          # the steps and their commands, nothing run

Each step is a command line run as a subprocess from the repository root; its output goes to
benchmarks/cache/logs/<step>.log while a live line shows the step, its elapsed time and its latest output.
A step whose input data is absent is skipped with a visible line; a step that fails is reported (with the
end of its log) and makes the run exit non-zero. benchmarks/summary.py runs last, whatever happened.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
LOGS = ROOT / "benchmarks" / "cache" / "logs"
LOCOMO = "../shared/data/locomo/locomo-dev.json"
console = Console()


@dataclass(frozen=True)
class Step:
    name: str
    argv: list[str]  # a Python script under benchmarks/ and its arguments
    needs: list[str] = field(default_factory=list)  # input files (relative to the repository root)
    stdout_to: str | None = None  # save the step's stdout as this results file (for JSON-printing scripts)


# Retrieval quality: the LongMemEval harness, baselines and peers add their steps here.
LONGMEMEVAL_SAMPLE = "tests/data/longmemeval_sample.json"
LONGMEMEVAL_S = "../shared/data/longmemeval/longmemeval_s_cleaned.json"  # used when someone provides it
LONGMEMEVAL_STEP = Step(  # our small LongMemEval-format file: checks the harness, all methods and the peer
    "longmemeval",
    [
        *["benchmarks/longmemeval.py", "--data", LONGMEMEVAL_SAMPLE, "--k", "1", "3", "5"],
        *["--out", "benchmarks/results/longmemeval.json"],
    ],
    needs=[LONGMEMEVAL_SAMPLE],
)
QUALITY_QUICK: list[Step] = [
    Step(  # one conversation, no latency section: the quality part stays within a few minutes
        "locomo",
        [
            *["benchmarks/locomo.py", "--data", LOCOMO, "--limit", "1", "--no-latency"],
            *["--user-prefix", "locomo-quick-", "--out", "benchmarks/results/recall_quality_quick.json"],
        ],
        needs=[LOCOMO],
    ),
    LONGMEMEVAL_STEP,
]
QUALITY_FULL: list[Step] = [
    Step(
        "locomo",
        ["benchmarks/locomo.py", "--data", LOCOMO, "--out", "benchmarks/results/recall_quality.json"],
        needs=[LOCOMO],
    ),
    LONGMEMEVAL_STEP,
    Step(
        "longmemeval_s",
        [
            *["benchmarks/longmemeval.py", "--data", LONGMEMEVAL_S, "--limit", "20"],
            *["--out", "benchmarks/results/longmemeval_s.json"],
        ],
        needs=[LONGMEMEVAL_S],
    ),
]

# Speed (issue 14): formation cost vs tenant size, bulk ingest (precomputed vs bare, end to end with the
# default embedder), the REST load. Scale (recall latency, jobs against a bare SET) is the "scale" step.
SPEED_QUICK: list[Step] = [
    Step(  # its own file: the quick sizes (500 to 3,000) must not replace the full run's 1k-100k result
        "formation_scaling",
        [
            "benchmarks/formation_scaling.py",
            "--quick",
            "--out",
            "benchmarks/results/formation_scaling_quick.json",
        ],
    ),
    Step(
        "ingest",
        [
            *["benchmarks/ingest.py", "--memories", "300", "--batch", "100", "--e2e", "300"],
            *["--e2e-batch", "300", "--out", "benchmarks/results/ingest_quick.json"],
        ],
    ),
    Step(
        "rest_load",
        ["benchmarks/rest_load.py", "--quick", "--out", "benchmarks/results/rest_load_quick.json"],
    ),
]
SPEED_FULL: list[Step] = [
    Step("formation_scaling", ["benchmarks/formation_scaling.py"]),
    Step(
        "ingest",
        [
            *["benchmarks/ingest.py", "--memories", "2000", "--batch", "500", "--e2e", "2000"],
            *["--e2e-batch", "1000", "--out", "benchmarks/results/ingest.json"],
        ],
    ),
    Step(
        "rest_load",
        [
            *["benchmarks/rest_load.py", "--requests", "1000", "--clients", "20"],
            *["--out", "benchmarks/results/rest_load.json"],
        ],
    ),
]

STEPS: dict[str, list[Step]] = {
    "quick": [
        Step(  # its own file: scale.py merges sizes into --out; 50 queries must not replace the full 10k row
            "scale",
            [
                *["benchmarks/scale.py", "--sizes", "10000", "--queries", "50"],
                *["--out", "benchmarks/results/scale_quick.json"],
            ],
        ),
        *SPEED_QUICK,
        *QUALITY_QUICK,
        Step(  # a short simulation into its own file: the full run's results stay as they are
            "dynamics",
            [
                *["benchmarks/dynamics_sim.py", "--days", "7", "--warmup", "7", "--users", "2"],
                *["--out", "benchmarks/results/dynamics_sim_quick.json"],
            ],
            needs=[LOCOMO],  # the simulation replays LoCoMo conversations
        ),
        Step(
            "entity_precision",
            ["benchmarks/entity_precision.py"],
            stdout_to="benchmarks/results/entity_precision.json",
        ),
    ],
    "full": [
        Step("scale", ["benchmarks/scale.py", "--sizes", "10000", "100000", "1000000"]),
        *SPEED_FULL,
        *QUALITY_FULL,
        Step("dynamics", ["benchmarks/dynamics_sim.py", "--days", "30"], needs=[LOCOMO]),
        Step(
            "entity_precision",
            ["benchmarks/entity_precision.py"],
            stdout_to="benchmarks/results/entity_precision.json",
        ),
    ],
}


def load() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages (recorded around every step)."""
    return [round(x, 2) for x in os.getloadavg()]


def run_step(step: Step, progress: Progress) -> tuple[str, float]:
    """Run one step; returns its status (ok, failed, skipped) and its duration."""
    missing = [p for p in step.needs if not (ROOT / p).exists()]
    if missing:
        progress.console.print(
            f"[yellow]{step.name}: skipped: data not found ({', '.join(missing)})[/yellow]"
        )
        return "skipped", 0.0
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{step.name}.log"
    argv = [sys.executable, *step.argv]
    task = progress.add_task(step.name, total=None, last="")
    started = time.perf_counter()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    stdout: list[str] = []
    with log.open("w", buffering=1) as out:  # line-buffered: the log can be followed live
        out.write("$ " + " ".join(argv) + "\n")
        with subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        ) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:  # universal newlines: a progress bar's carriage returns end lines too
                out.write(line)
                stdout.append(line)
                if line.strip():
                    progress.update(task, last=line.strip()[:70])
    seconds = time.perf_counter() - started
    progress.update(task, total=1, completed=1, last=f"exit {proc.returncode}")
    if proc.returncode != 0:
        tail = log.read_text().splitlines()[-15:]
        progress.console.print(f"[red]{step.name}: FAILED (exit {proc.returncode}), log {log}[/red]")
        progress.console.print("\n".join(tail), markup=False, highlight=False)
        return "failed", seconds
    if step.stdout_to:  # the step's JSON document (rich and log lines go elsewhere)
        text = "".join(stdout)
        (ROOT / step.stdout_to).write_text(text[text.find("{") :])
    progress.console.print(f"[green]{step.name}: ok in {seconds:.0f} s[/green]")
    return "ok", seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--quick", action="store_const", const="quick", dest="mode")
    mode.add_argument("--full", action="store_const", const="full", dest="mode")
    parser.add_argument("--only", help="comma-separated step names (see --list)")
    parser.add_argument("--list", action="store_true", help="print the steps and their commands, run nothing")
    args = parser.parse_args(argv)
    steps = STEPS[args.mode]
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {s.name for s in steps}
        if unknown:
            parser.error(
                f"unknown step(s) {', '.join(sorted(unknown))}; known: {', '.join(s.name for s in steps)}"
            )
        steps = [s for s in steps if s.name in wanted]
    if args.list:
        for step in steps:
            print(f"{step.name}: python {' '.join(step.argv)}")
        return
    record = []
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[last]}", style="dim"),
        console=console,
    ) as progress:
        overall = progress.add_task(f"benchmarks ({args.mode})", total=len(steps), last="")
        for step in steps:
            before = load()
            status, seconds = run_step(step, progress)
            record.append(
                {
                    "name": step.name,
                    "command": " ".join(["python", *step.argv]),
                    "status": status,
                    "seconds": round(seconds, 1),
                    "load_before": before,
                    "load_after": load(),
                }
            )
            progress.advance(overall)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "bench_run.json").write_text(
        json.dumps({"mode": args.mode, "cpus": os.cpu_count(), "steps": record}, indent=2)
    )
    table = Table(title=f"benchmarks ({args.mode})")
    for col in ("step", "status", "seconds", "load 1m before / after"):
        table.add_column(col)
    for r in record:
        colour = {"ok": "green", "failed": "red", "skipped": "yellow"}[str(r["status"])]
        loads = f"{r['load_before'][0]} / {r['load_after'][0]}"  # type: ignore[index]
        table.add_row(str(r["name"]), f"[{colour}]{r['status']}[/{colour}]", str(r["seconds"]), loads)
    console.print(table)
    summary = subprocess.run([sys.executable, "benchmarks/summary.py"], cwd=ROOT, check=False)
    failed = [r["name"] for r in record if r["status"] == "failed"]
    if failed or summary.returncode != 0:
        console.print(f"[red]failed: {', '.join(map(str, failed)) or 'summary'}[/red]")
        sys.exit(1)


if __name__ == "__main__":
    main()
