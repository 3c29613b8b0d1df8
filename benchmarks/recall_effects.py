"""Recall latency with its side effects written inline (in the request's own write transaction) vs deferred
(a plain read on the request path; a background writer commits the effects, ``Settings.recall_effects``).

One tenant of short synthetic messages; the two modes alternate query by query (the order swapped every
other query) so both see the same load, and both reinforce the same tenant. Then ``--clients`` threads run
the queries concurrently in each mode (the REST API's situation): wall time and the commits the writer made.

    nice -n 10 .venv/bin/python benchmarks/recall_effects.py --out benchmarks/results/recall_effects.json
    .venv/bin/python benchmarks/recall_effects.py --quick      # a minute's check that it runs

Run it alone on the machine (the load at start is printed): a lab figure, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import GraphMemory
from graphmem.retrieval.warmup import warm_plans

SUBJECTS = ["dog", "cello", "Lisbon", "marathon", "tomatoes", "Volvo", "stamps", "peanuts", "chess", "sushi"]
TEMPLATES = [
    "Today I spent an hour on {s} again",
    "My friend asked me about {s} at lunch",
    "I read an article about {s} on the train",
    "I want to get better at {s} this year",
]


def corpus(n: int) -> list[str]:
    return [
        TEMPLATES[(i // len(SUBJECTS)) % len(TEMPLATES)].format(s=SUBJECTS[i % len(SUBJECTS)])
        + f" (note {i})"
        for i in range(n)
    ]


def queries(n: int) -> list[str]:
    return [f"what did I do about {SUBJECTS[i % len(SUBJECTS)]}?" for i in range(n)]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "p50_ms": ms(statistics.median(ordered)),
        "p95_ms": ms(ordered[int(0.95 * (len(ordered) - 1))]),
        "mean_ms": ms(statistics.fmean(ordered)),
    }


def timed(mem: GraphMemory, query: str, user: str) -> float:
    started = time.perf_counter()
    mem.recall(query, user_id=user, k=10)
    return time.perf_counter() - started


def sequential(clients: dict[str, GraphMemory], user: str, qs: list[str]) -> dict[str, Any]:
    times: dict[str, list[float]] = {mode: [] for mode in clients}
    for i, q in enumerate(qs):
        order = list(clients) if i % 2 == 0 else list(reversed(clients))
        for mode in order:
            times[mode].append(timed(clients[mode], q, user))
    started = time.perf_counter()
    clients["deferred"].flush()
    return {mode: percentiles(t) for mode, t in times.items()} | {
        "final_flush_ms": ms(time.perf_counter() - started)
    }


def concurrent(mem: GraphMemory, user: str, qs: list[str], threads: int) -> dict[str, Any]:
    writer = mem.runtime.deferred
    written_before = writer.written
    with ThreadPoolExecutor(threads) as pool:
        started = time.perf_counter()
        latencies = list(pool.map(lambda q: timed(mem, q, user), qs))
        wall = time.perf_counter() - started
    mem.flush()
    flushed = time.perf_counter() - started
    out = percentiles(latencies) | {"wall_ms": ms(wall), "wall_with_flush_ms": ms(flushed)}
    if mem.runtime.settings.recall_effects == "deferred":
        out |= {"transactions": writer.written - written_before}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=400)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--clients", type=int, default=8, help="threads of the concurrent part (0: skip it)")
    parser.add_argument("--quick", action="store_true", help="40 memories, 10 queries: checks that it runs")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.quick:
        args.memories, args.queries = 40, 10
    user = f"bench-effects-{uuid.uuid4()}"
    qs = queries(args.queries)
    with GraphMemory.connect() as mem:
        mem.init()
        settings = mem.runtime.settings.model_copy(update={"recall_effects": "deferred"})
        deferred = GraphMemory(mem.runtime.store, mem.embedder, settings)  # same driver, other mode
        clients = {"inline": mem, "deferred": deferred}
        texts = corpus(args.memories)
        try:
            for i in range(0, len(texts), 100):
                mem.add_messages(texts[i : i + 100], user_id=user, session_id=f"s{i}")
            warm_plans(mem.runtime)
            for client in clients.values():  # the tenant's size cache, the plans of a reinforcing recall
                for q in qs[:3]:
                    client.recall(q, user_id=user, k=10)
            deferred.flush()
            result: dict[str, Any] = stamp(
                neo4j_version(mem.query),
                memories=args.memories,
                queries=args.queries,
                clients=args.clients,
                load_at_start=[round(x, 2) for x in os.getloadavg()],
            )
            result["sequential"] = sequential(clients, user, qs)
            if args.clients:
                result[f"concurrent_{args.clients}_clients"] = {
                    mode: concurrent(client, user, qs, args.clients) for mode, client in clients.items()
                }
            result["load_at_end"] = [round(x, 2) for x in os.getloadavg()]
        finally:
            deferred.runtime.deferred.close()  # not deferred.close(): the driver is mem's
            mem.users.delete(user)
    text = json.dumps(result, indent=2)
    print(text)
    print(f"rerun: {result['command']}  (load 1/5/15 min at start {result['load_at_start']})")
    if args.out is not None:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
