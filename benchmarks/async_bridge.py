"""What the async API costs and buys: recall latency through the greenlet bridge vs the sync facade, the wall
time of concurrent recalls on one AsyncGraphMemory vs the same recalls one after another, and the event
loop's worst stall meanwhile.

    nice -n 10 .venv/bin/python benchmarks/async_bridge.py --out benchmarks/results/async_bridge.json
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp

from graphmem import AsyncGraphMemory, GraphMemory, SentenceTransformerEmbedder

SUBJECTS = ["dog", "cello", "Lisbon", "marathon", "tomatoes", "Volvo", "stamps", "peanuts", "chess", "sushi"]


def corpus(n: int) -> list[str]:
    return [
        f"Note {i}: today I thought about {SUBJECTS[i % len(SUBJECTS)]} for a while ({i})" for i in range(n)
    ]


def queries(n: int) -> list[str]:
    return [f"what do I think about {SUBJECTS[i % len(SUBJECTS)]}?" for i in range(n)]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": ms(statistics.median(ordered)), "p95_ms": ms(ordered[int(0.95 * (len(ordered) - 1))])}


async def measure(
    sync_mem: GraphMemory, embedder: SentenceTransformerEmbedder, user: str, qs: list[str], fan: int
) -> dict[str, Any]:
    """Sync and async recalls alternate query by query, so both see the same load on the shared CPU."""
    async with await AsyncGraphMemory.connect(embedder=embedder) as mem:
        await mem.recall(qs[0], user_id=user, reinforce=False)  # warm the async pool
        sync_times, async_times = [], []
        for q in qs:
            started = time.perf_counter()
            sync_mem.recall(q, user_id=user, reinforce=False)
            sync_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            await mem.recall(q, user_id=user, reinforce=False)
            async_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        for q in qs[:fan]:
            sync_mem.recall(q, user_id=user, reinforce=False)
        one_by_one = time.perf_counter() - started
        ticks: list[float] = []
        done = asyncio.Event()

        async def ticker() -> None:
            while not done.is_set():
                ticks.append(time.perf_counter())
                await asyncio.sleep(0.005)

        task = asyncio.create_task(ticker())
        started = time.perf_counter()
        await asyncio.gather(*[mem.recall(q, user_id=user, reinforce=False) for q in qs[:fan]])
        wall = time.perf_counter() - started
        done.set()
        await task
        gaps = [b - a for a, b in itertools.pairwise(ticks)]
        return {
            "recall_sequential": {"sync": percentiles(sync_times), "async": percentiles(async_times)},
            f"{fan}_recalls_wall_ms": {"sync_one_by_one": ms(one_by_one), "async_gather": ms(wall)},
            "loop_during_gather": {"worst_gap_ms": ms(max(gaps)), "ticks_5ms": len(ticks)},
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=300)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--fan", type=int, default=20)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    embedder = SentenceTransformerEmbedder()
    user = f"bench-async-{uuid.uuid4()}"
    qs = queries(args.queries)
    with GraphMemory.connect(embedder=embedder) as mem:
        mem.init()
        texts = corpus(args.memories)
        for i in range(0, len(texts), 100):
            mem.add_messages(texts[i : i + 100], user_id=user, session_id=f"s{i}")
        try:
            mem.recall(qs[0], user_id=user, reinforce=False)
            measured = asyncio.run(measure(mem, embedder, user, qs, args.fan))
            result = {
                **stamp(neo4j_version(mem.query), memories=args.memories, queries=args.queries, fan=args.fan),
                **measured,
            }
        finally:
            mem.users.delete(user)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
