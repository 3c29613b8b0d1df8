"""The recall pool query of this checkout against another checkout's, same parameters, alternated: what a
change to ``cypher/recall_pool.cypher`` or its fragments costs on the server (and the wire), nothing else.

    git worktree add /tmp/pool_old <commit>
    .venv/bin/python benchmarks/pool_ab.py --old /tmp/pool_old --users r19-conv-43 r19-conv-26

Captures the ``recall_pool`` parameters of real recalls (six questions per user, ``reinforce=False``) on the
users given (a store built by ``locomo.py``, e.g. ``--user-prefix r19-``), then runs both query texts for
every captured recall, ``--rounds`` times, the order alternating; the first round is a warm-up. Prints p50 /
mean / p95 per checkout. Run it alone on a quiet machine.

Round 22 (``--old`` at 3d3bf7d, the typed-cosine guards against none, load < 0.8 at the start): p50 / mean /
p95 69.9 / 73.7 / 100.9 ms against 67.1 / 70.9 / 100.5 with the lab copy of this script; this script
itself, later and at load 0.78: 86.5 / 88.6 / 123.2 against 84.2 / 87.8 / 124.1 (docs/operations.md).
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path
from typing import Any

from graphmem import GraphMemory
from graphmem.store import queries

QUESTIONS = [
    "When did she go to the support group?",
    "What does she like to paint?",
    "Where did he travel for his business?",
    "What instrument does she play?",
    "When is the marathon?",
    "What did they talk about at dinner last week?",
]


def pool_text(root: Path) -> str:
    """``recall_pool`` of the checkout at ``root``, fragments expanded, as graphmem sends it (unfiltered)."""
    text = (root / "cypher" / "recall_pool.cypher").read_text()

    def include(match: re.Match[str]) -> str:
        name, variable, clock = match.groups()
        body = queries.strip_comments((root / "cypher" / "fragments" / f"{name}.cypher").read_text())
        return "(" + body.replace("__m__", variable).replace("__now__", f"({clock})") + ")"

    text = re.sub(r"\{\{(\w+)\(([\w.]+),\s*(.*?)\)\}\}", include, text)
    return queries.strip_comments(queries.dialect(text, filtered=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the other checkout (a git worktree)")
    parser.add_argument("--users", nargs="+", required=True)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    texts = {"this": pool_text(Path(__file__).resolve().parents[1]), "old": pool_text(args.old)}
    with GraphMemory.connect() as mem:
        store = mem.runtime.store
        captured: list[dict[str, Any]] = []
        real = store.read

        def capture(name: str, /, **params: Any) -> list[dict[str, Any]]:
            if name.endswith("recall_pool"):
                captured.append(params)
            return real(name, **params)

        store.read = capture  # type: ignore[method-assign]
        try:
            for user in args.users:
                for question in QUESTIONS:
                    mem.recall(question, user_id=user, k=10, reinforce=False)
        finally:
            del store.read
        if any(p["method"] == "filtered" for p in captured):
            raise SystemExit("a captured recall asked the filtered index: use users small enough to scan")
        times: dict[str, list[float]] = {k: [] for k in texts}
        for round_ in range(args.rounds):
            for i, params in enumerate(captured):
                order = list(texts) if (round_ + i) % 2 == 0 else list(texts)[::-1]
                for key in order:
                    start = time.perf_counter()
                    with store.driver.session() as session:
                        list(session.run(texts[key], params))
                    if round_:
                        times[key].append((time.perf_counter() - start) * 1000)
        for key, values in times.items():
            values.sort()
            print(
                f"{key}: n {len(values)}, p50 {statistics.median(values):.1f} ms, "
                f"mean {statistics.mean(values):.1f}, p95 {values[int(0.95 * (len(values) - 1))]:.1f}"
            )


if __name__ == "__main__":
    main()
