"""Job throughput: decay and forget over N synthetic memories, associate over a smaller embedded set.

Each job is compared with one bare ``SET`` over the same nodes, batched the same way, in the same run; decay
is timed on its first run over fresh memories (most change status) and on the next day's run. The
memories are created server-side with UNWIND under one `bench-` tenant (the jobs run scoped to it, so other
tenants are never touched) and deleted afterwards in batches.

``--home DIR`` runs everything on a spare local server (its own home and ports, started and stopped by the
script) so the shared server is never loaded; without it the script uses the managed server.

    .venv/bin/python benchmarks/jobs_throughput.py --sizes 100000 1000000 --associate 100000 \
        --home benchmarks/cache/jobs --bolt-port 7688 --http-port 7475
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from machine import neo4j_version, stamp
from rich.progress import Progress

from graphmem import GraphMemory, Settings
from graphmem.embedding import BGE_SMALL
from graphmem.server import LocalServer

RESULTS = Path(__file__).parent / "results"
T = TypeVar("T")
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
LINK = """
MATCH (m:Memory) WHERE m.user_id = $user
CALL (m) {
  WITH m, toInteger(substring(m.id, size($prefix))) AS i
  UNWIND range(1, $k) AS j
  MATCH (o:Memory {id: $prefix + toString((i + j) % $n)})
  WITH m, o, 0.05 + 0.9 * ((i + 3 * j) % 10) / 10.0 AS w, $t0 - duration({days: (i + j) % 60}) AS at
  CREATE (m)-[:RELATED_TO {weight: w, weight_base: w, weight_updated_at: at, recorded_at: at,
                           weight_due: datetime({epochSeconds: 0}), valid_from: at}]->(o)
} IN TRANSACTIONS OF 2000 ROWS
"""
BARE_SET_EDGES = """
MATCH (m:Memory)-[r:RELATED_TO]->() WHERE m.user_id = $user
CALL (r) { SET r.bench_touch = $now } IN TRANSACTIONS OF $batch ROWS
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


SERVER_PID: list[int] = []
"""The spare server's JVM (``--home``): its CPU seconds are recorded next to wall time, which other processes
on a shared machine inflate; on the managed (shared) server only wall time is recorded."""


def server_cpu() -> float | None:
    """CPU seconds (user + system) of the spare server's process so far, or None."""
    if not SERVER_PID:
        return None
    try:
        fields = Path(f"/proc/{SERVER_PID[0]}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Meter:
    """Wall and server-CPU seconds of named steps, and their ratios to the bare SET of the same run."""

    def __init__(self) -> None:
        self.out: dict[str, Any] = {}

    def __call__(self, key: str, work: Callable[[], T]) -> T:
        cpu, started = server_cpu(), time.perf_counter()
        result = work()
        self.out[f"{key}_s"] = round(time.perf_counter() - started, 2)
        after = server_cpu()
        if cpu is not None and after is not None:
            self.out[f"{key}_cpu_s"] = round(after - cpu, 2)
        if key != "bare_set":
            self.ratio(key)
        return result

    def ratio(self, key: str) -> None:
        self.out[f"{key}_ratio"] = round(self.out[f"{key}_s"] / self.out["bare_set_s"], 2)
        if f"{key}_cpu_s" in self.out and self.out.get("bare_set_cpu_s"):
            self.out[f"{key}_cpu_ratio"] = round(self.out[f"{key}_cpu_s"] / self.out["bare_set_cpu_s"], 2)


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


def job(mem: GraphMemory, name: str, user: str, now: datetime) -> Callable[[], dict[str, Any]]:
    """The job run as a step for :class:`Meter`: returns its counts, raises when it failed."""

    def run() -> dict[str, Any]:
        done = mem.jobs.run(name, user_id=user, now=now)
        if done.status != "success":
            raise RuntimeError(f"{name} failed: {done.error}")
        return done.counts

    return run


def measure_size(mem: GraphMemory, n: int, progress: Progress, edges: int = 0) -> dict[str, Any]:
    """Decay (first run, next day) and forget over ``n`` memories, with ``edges`` RELATED_TO edges from each
    (as formation writes them: anchored, weight_due at the epoch; a tenth fall below the floor by ``now``)."""
    user = f"bench-{uuid.uuid4()}"
    t0 = datetime(2025, 6, 1, tzinfo=UTC)
    now = t0 + timedelta(days=30)
    batch = mem.automation.get_config().batch_size
    load = os.getloadavg()[0]
    try:
        populate(mem, user, n, t0, progress)
        if edges:
            auto(mem, LINK, user=user, prefix=f"{user}-", k=edges, n=n, t0=t0)
        meter = Meter()
        meter("bare_set", lambda: auto(mem, BARE_SET, user=user, now=now, batch=batch))
        if edges:  # one bare SET over the edges, for the edge step's scale (not a ratio base)
            meter("bare_set_edges", lambda: auto(mem, BARE_SET_EDGES, user=user, now=now, batch=batch))
        decay_counts = meter("decay", job(mem, "decay", user, now))
        # the scheduled case: the next daily run, when few memories change status
        daily_counts = meter("decay_next_day", job(mem, "decay", user, now + timedelta(days=1)))
        # the same run again (it writes nothing): the first next-day run also pays for replanning after the
        # bulk load and the first run's writes, which a nightly job does not meet every night
        again_counts = meter("decay_next_day_again", job(mem, "decay", user, now + timedelta(days=1)))
        forget_counts = meter("forget", job(mem, "forget", user, now + timedelta(days=1)))
        return {
            "memories": n,
            "edges_per_memory": edges,
            "batch_size": batch,
            "load_1m_before": round(load, 2),
            "load_1m_after": round(os.getloadavg()[0], 2),
            **meter.out,
            "decay_counts": decay_counts,
            "decay_next_day_counts": daily_counts,
            "forget_counts": forget_counts,
            "decay_next_day_again_counts": again_counts,
        }
    finally:
        auto(mem, DELETE, user=user)
        mem.runtime.store.run_statement("MATCH (r:JobRun {user_id: $u}) DELETE r", {"u": user})


def embed(mem: GraphMemory, user: str, n: int, start: int = 0, base: int | None = None) -> float:
    """Clustered unit vectors (topics of CLUSTER memories, noise 0.35 per dimension; cosine within a topic
    about 0.9), seeded: uniform random vectors have no neighbour above the threshold and write no edge.
    Memories ``start``..``n`` - 1 get vectors; ``base`` (default ``n``) fixes the topics, so memories added
    later join the first memories' topics."""
    import numpy as np

    rng = np.random.default_rng(1)
    topics = rng.normal(size=(max(1, (base or n) // CLUSTER), 384))
    started = time.perf_counter()
    for lo in range(start, n, 2000):
        rows = []
        for i in range(lo, min(n, lo + 2000)):
            v = topics[i % len(topics)] + rng.normal(0, 0.35, 384)
            rows.append({"id": f"{user}-{i}", "v": (v / np.linalg.norm(v)).tolist()})
        mem.runtime.store.run_statement(EMBED, {"rows": rows})
    return time.perf_counter() - started


def measure_associate(
    mem: GraphMemory, gds: GraphMemory | None, n: int, progress: Progress
) -> dict[str, Any]:
    """The full pass on a fresh tenant (the first run: every memory is new; in process up to
    ``associate_in_process_max``), then the incremental run after 1% more memories arrive, then (unless
    ``gds`` is None) the full pass again by GDS kNN (``gds``: a client whose config sends every tenant
    there) and once more in process (the first ran right after the bulk writes)."""
    user = f"bench-{uuid.uuid4()}"
    t0 = datetime(2025, 6, 1, tzinfo=UTC)
    load = os.getloadavg()[0]
    try:
        populate(mem, user, n, t0, progress)
        embed_s = embed(mem, user, n)
        meter = Meter()
        meter(
            "bare_set",
            lambda: auto(mem, BARE_SET, user=user, now=t0, batch=mem.automation.get_config().batch_size),
        )
        full_counts = meter("associate_full", job(mem, "associate", user, t0))
        fresh = max(1, n // 100)
        auto(mem, CREATE, lo=n, hi=n + fresh - 1, prefix=f"{user}-", user=user, t0=t0)
        embed(mem, user, n + fresh, start=n, base=n)
        inc_counts = meter("associate_incremental", job(mem, "associate", user, t0 + timedelta(days=1)))
        out: dict[str, Any] = {
            "memories": n,
            "embedding_dim": 384,
            "embed_setup_s": round(embed_s, 2),
            "load_1m_before": round(load, 2),
            "incremental_new_memories": fresh,
            "note": "associate_full runs right after the bulk vector writes, while the server merges its "
            "vector index's Lucene segments (~45 s of one core after 100,000 vectors, docs/operations.md); "
            "associate_full_again is the same pass on a settled server",
            **meter.out,
            "associate_full_counts": full_counts,
            "associate_incremental_counts": inc_counts,
        }
        if gds is not None:
            auto(mem, UNLINK, user=user)  # every memory new again: the full pass
            out["associate_gds_counts"] = meter("associate_gds", job(gds, "associate", user, t0))
            auto(mem, UNLINK, user=user)  # the first full pass ran right after the bulk writes
            again = meter("associate_full_again", job(mem, "associate", user, t0))
            out["associate_full_again_counts"] = again
            out.update(meter.out)
        out["load_1m_after"] = round(os.getloadavg()[0], 2)
        return out
    finally:
        auto(mem, DELETE, user=user)
        mem.runtime.store.run_statement("MATCH (r:JobRun {user_id: $u}) DELETE r", {"u": user})


@contextlib.contextmanager
def server_connection(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """Connection arguments: the managed server, or a spare one under ``--home`` (stopped afterwards)."""
    if args.home is None:
        yield {}
        return
    server = LocalServer(args.home.resolve(), bolt_port=args.bolt_port, http_port=args.http_port)
    status = server.start(progress=print)
    if status.pid is not None:
        SERVER_PID.append(status.pid)
    try:
        yield {"uri": status.bolt_uri, "auth": server.credentials()}
    finally:
        if not args.keep_server:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 300_000])
    parser.add_argument("--associate", type=int, default=10_000, help="memories for associate (0: skip)")
    parser.add_argument("--edges", type=int, default=0, help="RELATED_TO edges per memory for decay/forget")
    parser.add_argument(
        "--no-gds", action="store_true", help="skip associate's full pass by GDS kNN (the comparison)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "jobs_throughput.json")
    parser.add_argument("--home", type=Path, help="run on a spare local server with this home")
    parser.add_argument("--bolt-port", type=int, default=7688)
    parser.add_argument("--http-port", type=int, default=7475)
    parser.add_argument("--keep-server", action="store_true", help="leave the spare server running")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"sizes": [], "associate": None}

    class NoEmbedder:
        dimension = 384
        name = BGE_SMALL  # the default embedder's space: init() accepts a store that holds its vectors

        def embed(self, texts: list[str]) -> list[list[float]]:
            raise RuntimeError("the throughput benchmark embeds nothing")

    with (
        server_connection(args) as connect,
        GraphMemory.connect(embedder=NoEmbedder(), **connect) as mem,  # type: ignore[arg-type]
        GraphMemory.connect(
            settings=Settings(automation_config_id=f"bench-gds-{uuid.uuid4()}"),
            embedder=NoEmbedder(),  # type: ignore[arg-type]
            **connect,
        ) as gds,
        Progress() as progress,
    ):
        mem.init()
        config = gds.automation.get_config()  # every tenant's full pass on the server
        dynamics = config.dynamics.model_copy(update={"associate_in_process_max": 0})
        gds.automation.set_config(config.model_copy(update={"dynamics": dynamics}))
        server = f"spare server {args.home}" if args.home else "managed (shared) server"
        results = {"stamp": stamp(neo4j_version(mem.query), server=server), **results}
        for n in args.sizes:
            results["sizes"].append(measure_size(mem, n, progress, args.edges))
            progress.console.print(results["sizes"][-1])
        if args.associate:
            results["associate"] = measure_associate(
                mem, None if args.no_gds else gds, args.associate, progress
            )
            progress.console.print(results["associate"])
    args.out.write_text(json.dumps(results, indent=2))
    _plot(results, args.out.with_suffix(".png"))


def _plot(results: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r["memories"] for r in results["sizes"]]
    fig, ax = plt.subplots(figsize=(6, 4))
    for key in ("bare_set_s", "decay_s", "decay_next_day_s", "decay_next_day_again_s", "forget_s"):
        ax.plot(sizes, [r.get(key, 0) for r in results["sizes"]], marker="o", label=key.removesuffix("_s"))
    ax.set_xlabel("memories")
    ax.set_ylabel("seconds")
    ax.set_title("job time vs. one bare SET")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
