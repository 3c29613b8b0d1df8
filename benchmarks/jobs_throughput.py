"""Job throughput: decay and forget over N synthetic memories, associate over a smaller embedded set.

Each job is compared with one bare ``SET`` over the same nodes, batched the same way, in the same run; decay
is timed on its first run over fresh memories (most change status) and on the next day's run. The
memories are created server-side with UNWIND under one `bench-` tenant (the jobs run scoped to it, so other
tenants are never touched) and deleted afterwards in batches.

    .venv/bin/python benchmarks/jobs_throughput.py --sizes 100000 300000 --associate 10000
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from machine import neo4j_version, stamp
from rich.progress import Progress

from graphmem import GraphMemory, Settings
from graphmem.embedding import BGE_SMALL

RESULTS = Path(__file__).parent / "results"
CHUNK = 50_000

CREATE = """
UNWIND range($lo, $hi) AS i
CALL (i) {
  CREATE (m:Memory {id: $prefix + toString(i)})
  SET m.user_id = $user, m.content = 'synthetic memory ' + toString(i),
      m.memory_type = ['episodic', 'semantic', 'procedural', 'preference'][i % 4],
      m.priority = ['P0', 'P1', 'P2', 'P2', 'P3', 'P3'][i % 6], m.strength = 1.0, m.retention = 1.0,
      m.access_count = i % 5, m.status = 'active', m.layer = 'working', m.importance = 0.5, m.version = 1,
      m.created_at = $t0 - duration({days: i % 60}), m.last_accessed_at = $t0 - duration({days: i % 30})
} IN TRANSACTIONS OF 10000 ROWS
"""
EMBED = """
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
CALL db.create.setNodeVectorProperty(m, 'embedding', row.v)
"""
CLUSTER = 20  # memories per topic: associate's threshold must find real neighbours, as in a real tenant
BARE_SET = """
MATCH (m:Memory) WHERE m.user_id = $user
CALL (m) { SET m.bench_touch = $now } IN TRANSACTIONS OF $batch ROWS
"""
UNLINK = """
MATCH (m:Memory) WHERE m.user_id = $user
CALL (m) {
  REMOVE m.associated_at
  WITH m
  MATCH (m)-[r:RELATED_TO]-()
  DELETE r
} IN TRANSACTIONS OF 2000 ROWS
"""
DELETE = """
MATCH (m:Memory) WHERE m.user_id = $user
CALL (m) { DETACH DELETE m } IN TRANSACTIONS OF 10000 ROWS
"""


def auto(mem: GraphMemory, cypher: str, **params: Any) -> float:
    started = time.perf_counter()
    with mem.runtime.store.driver.session(database=mem.runtime.store.database) as session:
        session.run(cypher, params).consume()  # type: ignore[arg-type]
    return time.perf_counter() - started


def populate(mem: GraphMemory, user: str, n: int, t0: datetime, progress: Progress) -> None:
    task = progress.add_task(f"creating {n:,} memories", total=n)
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK) - 1
        auto(mem, CREATE, lo=lo, hi=hi, prefix=f"{user}-", user=user, t0=t0)
        progress.advance(task, hi - lo + 1)


def timed_job(mem: GraphMemory, name: str, user: str, now: datetime) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    run = mem.jobs.run(name, user_id=user, now=now)
    elapsed = time.perf_counter() - started
    if run.status != "success":
        raise RuntimeError(f"{name} failed: {run.error}")
    return elapsed, run.counts


def measure_size(mem: GraphMemory, n: int, progress: Progress) -> dict[str, Any]:
    user = f"bench-{uuid.uuid4()}"
    t0 = datetime(2025, 6, 1, tzinfo=UTC)
    now = t0 + timedelta(days=30)
    batch = mem.automation.get_config().batch_size
    try:
        populate(mem, user, n, t0, progress)
        bare = auto(mem, BARE_SET, user=user, now=now, batch=batch)
        decay_s, decay_counts = timed_job(mem, "decay", user, now)
        # the scheduled case: the next daily run, when few memories change status
        daily_s, daily_counts = timed_job(mem, "decay", user, now + timedelta(days=1))
        forget_s, forget_counts = timed_job(mem, "forget", user, now + timedelta(days=1))
        return {
            "memories": n,
            "batch_size": batch,
            "bare_set_s": round(bare, 2),
            "decay_s": round(decay_s, 2),
            "decay_ratio": round(decay_s / bare, 2),
            "decay_counts": decay_counts,
            "decay_next_day_s": round(daily_s, 2),
            "decay_next_day_ratio": round(daily_s / bare, 2),
            "decay_next_day_counts": daily_counts,
            "forget_s": round(forget_s, 2),
            "forget_ratio": round(forget_s / bare, 2),
            "forget_counts": forget_counts,
        }
    finally:
        auto(mem, DELETE, user=user)
        mem.runtime.store.run_statement("MATCH (r:JobRun {user_id: $u}) DELETE r", {"u": user})


def embed(mem: GraphMemory, user: str, n: int) -> float:
    """Clustered unit vectors (topics of CLUSTER memories, noise 0.35 per dimension; cosine within a topic
    about 0.9), seeded: uniform random vectors have no neighbour above the threshold and write no edge."""
    import numpy as np

    rng = np.random.default_rng(1)
    topics = rng.normal(size=(max(1, n // CLUSTER), 384))
    started = time.perf_counter()
    for lo in range(0, n, 2000):
        rows = []
        for i in range(lo, min(n, lo + 2000)):
            v = topics[i % len(topics)] + rng.normal(0, 0.35, 384)
            rows.append({"id": f"{user}-{i}", "v": (v / np.linalg.norm(v)).tolist()})
        mem.runtime.store.run_statement(EMBED, {"rows": rows})
    return time.perf_counter() - started


def measure_associate(mem: GraphMemory, gds_off: GraphMemory, n: int, progress: Progress) -> dict[str, Any]:
    user = f"bench-{uuid.uuid4()}"
    t0 = datetime(2025, 6, 1, tzinfo=UTC)
    try:
        populate(mem, user, n, t0, progress)
        embed_s = embed(mem, user, n)
        bare = auto(mem, BARE_SET, user=user, now=t0, batch=mem.automation.get_config().batch_size)
        gds_s, gds_counts = timed_job(mem, "associate", user, t0)
        auto(mem, UNLINK, user=user)  # the fallback links every memory again, not only new ones
        vec_s, vec_counts = timed_job(gds_off, "associate", user, t0)
        return {
            "memories": n,
            "embedding_dim": 384,
            "embed_setup_s": round(embed_s, 2),
            "bare_set_s": round(bare, 2),
            "associate_gds_s": round(gds_s, 2),
            "associate_gds_ratio": round(gds_s / bare, 2),
            "associate_gds_counts": gds_counts,
            "associate_vector_s": round(vec_s, 2),
            "associate_vector_ratio": round(vec_s / bare, 2),
            "associate_vector_counts": vec_counts,
        }
    finally:
        auto(mem, DELETE, user=user)
        mem.runtime.store.run_statement("MATCH (r:JobRun {user_id: $u}) DELETE r", {"u": user})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 300_000])
    parser.add_argument("--associate", type=int, default=10_000, help="memories for associate (0: skip)")
    parser.add_argument("--out", type=Path, default=RESULTS / "jobs_throughput.json")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"sizes": [], "associate": None}

    class NoEmbedder:
        dimension = 384
        name = BGE_SMALL  # the default embedder's space: init() accepts a store that holds its vectors

        def embed(self, texts: list[str]) -> list[list[float]]:
            raise RuntimeError("the throughput benchmark embeds nothing")

    with (
        GraphMemory.connect(embedder=NoEmbedder()) as mem,  # type: ignore[arg-type]
        GraphMemory.connect(settings=Settings(gds_enabled=False), embedder=NoEmbedder()) as gds_off,  # type: ignore[arg-type]
        Progress() as progress,
    ):
        mem.init()
        results = {"stamp": stamp(neo4j_version(mem.query)), **results}
        for n in args.sizes:
            results["sizes"].append(measure_size(mem, n, progress))
            progress.console.print(results["sizes"][-1])
        if args.associate:
            results["associate"] = measure_associate(mem, gds_off, args.associate, progress)
            progress.console.print(results["associate"])
    args.out.write_text(json.dumps(results, indent=2))
    _plot(results, args.out.with_suffix(".png"))


def _plot(results: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r["memories"] for r in results["sizes"]]
    fig, ax = plt.subplots(figsize=(6, 4))
    for key in ("bare_set_s", "decay_s", "decay_next_day_s", "forget_s"):
        ax.plot(sizes, [r.get(key, 0) for r in results["sizes"]], marker="o", label=key.removesuffix("_s"))
    ax.set_xlabel("memories")
    ax.set_ylabel("seconds")
    ax.set_title("job time vs. one bare SET")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
