"""What ``mem.memories.count`` costs next to a ``mem.memories.list`` page, at one large tenant; and the
timeline's reads there.

    .venv/bin/python benchmarks/memory_count.py --memories 25000 --repeats 7

1. fill (kept across runs): the tenant ``bench-count-<memories>`` is topped up to ``--memories`` through the
   bulk path, ``add_messages`` in calls of ``--batch`` messages (one session per call, the default
   embedder, extraction on); the sentences are drawn from templates, so near-duplicate merging is off
   (``duplicate_threshold=1.0``) for the fill alone;
2. timing: per repeat, the first list page, a deep page (offset at nine tenths), the same page by cursor
   (``after=`` the memory before it, which the baseline offset page reads past), and the count with no
   filter, with a session filter, a memory-type filter and a tag filter (which no memory carries: the
   whole tenant is read); the timeline's latest 500 events newest first (the dashboard's read) and one
   week's window, next to the whole timeline (the baseline: what the dashboard read before round 52),
   each through the public facade on one connection; the median and the spread
   of ``--repeats`` runs are reported in ms, with the load average before and after (another process may
   share the machine);
3. ``--drop`` deletes the tenant afterwards (a shared development server keeps its size).

Results go to stdout and ``--out`` (JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from graphmem import GraphMemory, Settings

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena"]
PLACES = ["Leeds", "Porto", "Oslo", "Kyoto", "Lima", "Cork", "Turin", "Quebec", "Hobart", "Bergen"]
THINGS = ["a bike", "two tickets", "a cello", "running shoes", "a lamp", "seeds", "a kettle", "paint"]
TEMPLATES = [
    "{name} and I went to {place} on day {n} and bought {thing}.",
    "I keep thinking about {thing} {name} showed me in {place} (note {n}).",
    "Reminder {n}: call {name} about {thing} before the trip to {place}.",
    "{name} said the market in {place} sells {thing} cheaper, entry {n}.",
    "We argued about whether {thing} was worth it; {name} wants to fly to {place} ({n}).",
]


def sentence(n: int, rng: random.Random) -> str:
    return rng.choice(TEMPLATES).format(
        name=rng.choice(NAMES), place=rng.choice(PLACES), thing=rng.choice(THINGS), n=n
    )


def fill(mem: GraphMemory, user: str, target: int, batch: int) -> tuple[int, float]:
    """Top ``user`` up to ``target`` memories through add_messages; (memories added, seconds)."""
    have = mem.memories.count(user, status=["active", "weak", "dormant", "forgotten"])
    rng = random.Random(have)
    start, t0 = datetime(2024, 1, 1, tzinfo=UTC), time.perf_counter()
    n = have
    while n < target:
        msgs = [
            {"role": "user", "content": sentence(i, rng), "timestamp": start + timedelta(minutes=7 * i)}
            for i in range(n, min(target, n + batch))
        ]
        n += len(mem.add_messages(msgs, user_id=user, session_id=f"s{n // batch}"))
        print(f"  {n} / {target} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return n - have, time.perf_counter() - t0


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = call()
    return (time.perf_counter() - t0) * 1000, result


def measure(mem: GraphMemory, user: str, repeats: int) -> dict[str, Any]:
    total = mem.memories.count(user)
    deep = total * 9 // 10
    before = mem.memories.list(user, limit=1, offset=deep - 1)[0].id  # the cursor of the deep page
    week = mem.memories.list(user, limit=1, offset=total // 2)[0].occurred_at or datetime.now(
        UTC
    )  # mid-history
    calls: dict[str, Callable[[], Any]] = {
        "list_page_0": lambda: mem.memories.list(user, limit=100),
        "list_page_deep": lambda: mem.memories.list(user, limit=100, offset=deep),
        "list_page_deep_by_cursor": lambda: mem.memories.list(user, limit=100, after=before),
        "timeline_whole": lambda: mem.temporal.timeline(user),
        "timeline_latest_500": lambda: mem.temporal.timeline(user, limit=500, newest_first=True),
        "timeline_week": lambda: mem.temporal.timeline(user, start=week, end=week + timedelta(days=7)),
        "count": lambda: mem.memories.count(user),
        "count_session": lambda: mem.memories.count(user, session_id="s3"),
        "count_type": lambda: mem.memories.count(user, memory_type="episodic"),
        "count_tag": lambda: mem.memories.count(user, tags=["absent"]),
    }
    for call in calls.values():  # plans and page cache warm, as in a running server
        call()
    by_offset, by_cursor = calls["list_page_deep"](), calls["list_page_deep_by_cursor"]()
    assert [m.id for m in by_offset] == [m.id for m in by_cursor], "the cursor page is not the offset page"
    ms: dict[str, list[float]] = {name: [] for name in calls}
    results: dict[str, Any] = {}
    for _ in range(repeats):
        for name, call in calls.items():
            took, results[name] = timed(call)
            ms[name].append(round(took, 1))
    return {
        "memories": total,
        "ms": {
            name: {"median": statistics.median(v), "min": min(v), "max": max(v), "runs": v}
            for name, v in ms.items()
        },
        "counts": {k: v for k, v in results.items() if isinstance(v, int)},
        "rows": {k: len(v) for k, v in results.items() if isinstance(v, list)},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=25_000)
    parser.add_argument("--batch", type=int, default=1000, help="messages per add_messages call (fill)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--fill-only", action="store_true")
    parser.add_argument("--drop", action="store_true", help="delete the tenant afterwards (users.delete)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/memory_count.json"))
    args = parser.parse_args(argv)
    user = f"bench-count-{args.memories}"
    with GraphMemory.connect(settings=Settings(duplicate_threshold=1.0)) as mem:
        mem.init()
        added, seconds = fill(mem, user, args.memories, args.batch)
    if args.fill_only:
        print(json.dumps({"user": user, "added": added, "fill_s": round(seconds, 1)}))
        return
    load_before = [round(x, 2) for x in os.getloadavg()]
    with GraphMemory.connect() as mem:
        report = measure(mem, user, args.repeats)
        if args.drop:
            mem.users.delete(user)
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "user": user,
        "filled": {"added": added, "seconds": round(seconds, 1)},
        **report,
    }
    print(json.dumps(report, indent=1))
    args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
