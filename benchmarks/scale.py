"""Scale and speed at 10k, 100k and 1M memories: ingestion, recall, as_of, jobs, store size.

    .venv/bin/python benchmarks/scale.py --sizes 10000 100000 1000000

Each size has its own store and its own local server (ports 7688/7475, home benchmarks/cache/scale-<size>/,
started and stopped by this script), so the shared server on 7687 is never touched. Per size, in one run:

- workload (deterministic, seeded): a background of N memories written with a bare ``UNWIND ... CREATE``
  (``scale_recall.populate``: a large tenant of N/10 memories and a 1,000-memory tenant, both with FOLLOWS
  session chains, and tenants of N/20), kept across runs; on top of it, rebuilt every run through graphmem's
  formation path (``add_messages`` with precomputed vectors, extraction on): users of 500 memories in
  sessions of 50 messages, template sentences naming people and places, and one user with long fact
  histories (``set_fact`` supersessions with valid times a week apart);
- ingestion: memories/s through formation against a bare ``UNWIND ... CREATE`` of the same rows (written
  under mirror users first, then deleted) — measured on the formation slice, not on all N;
- recall latency p50/p95/p99 for a small, a formation-built and the large tenant: with and without graph
  expansion (hops 3 / 0), with and without computing the query embedding, and a bare vector-index query;
  each tenant's first pass over the queries (recall with the graph, cold where the page cache does not
  hold the tenant) is timed apart, then the four variants interleaved query by query (each meets the same
  cache state);
- ``as_of`` recall and ``get_fact(as_of=...)`` on the fact-history user;
- decay and forget over all memories and associate over the large tenant (up to --associate-max, else the
  1,000-memory one), each against one bare ``SET`` over the same nodes (``jobs_throughput``'s code), on a
  clock 30 days after the background was written (the same ages on every run of a kept store); everything
  the jobs write is removed before and after them (decay's anchors too), so every run times a first run;
- store size on disk, heap (JMX) and server RSS, per million memories.

Vectors are SYNTHESISED: real embeddings by the default embedder (bge-small INT8) of 3,000 template
sentences (cached in benchmarks/cache/base-3000-<embedder>.npy) perturbed with Gaussian noise (sigma 0.04)
and renormalised, seeded, so a rerun embeds nothing. Results merge by size into
benchmarks/results/scale.json, scale.md and two plots.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).parent))
import ingest
import jobs_throughput
import roundtrips
import scale_recall
from machine import neo4j_version, stamp
from scale_report import write_report

from graphmem import GraphMemory, OnnxEmbedder, Settings
from graphmem.formation.writer import MemoryDraft, embedding_text
from graphmem.model import fact_patterns
from graphmem.model.extraction import PatternExtractor
from graphmem.retrieval.search import tenant_profile
from graphmem.retrieval.terms import vector_query
from graphmem.server import LocalServer
from graphmem.store.queries import query
from graphmem.store.runtime import VECTOR_INDEXES

console = Console()
RESULTS = Path(__file__).parent / "results"
SIGMA = 0.04
PEOPLE = [
    "Anna",
    "Ben",
    "Chloe",
    "David",
    "Elena",
    "Farid",
    "Grace",
    "Hugo",
    "Ines",
    "Jonas",
    "Keiko",
    "Liam",
]
PLACES = ["Lisbon", "Oslo", "Kyoto", "Denver", "Cairo", "Porto", "Munich", "Dublin", "Seattle", "Lyon"]
FACT_KEYS = ["city", "employer", "diet", "car", "gym", "phone", "team", "hobby", "doctor", "bank"]
ALL_SET = """
MATCH (m:Memory)
CALL (m) { SET m.bench_touch = $now } IN TRANSACTIONS OF $batch ROWS
"""
# back to the rows as written: every property a job writes goes, decay's anchors (decay_due and the four
# coefficients) included, so the next run's first decay evaluates every memory again, as on a new store
RESET = """
MATCH (m:Memory)
WHERE m.decayed_at IS NOT NULL OR m.status <> 'active' OR m.bench_touch IS NOT NULL OR m.decay_due IS NOT NULL
CALL (m) {
  SET m.status = 'active', m.retention = 1.0, m.strength = 1.0
  REMOVE m.decayed_at, m.strength_updated_at, m.base_activation, m.status_changed_at, m.forgotten_at,
         m.forgotten_reason, m.status_before_forgetting, m.bench_touch, m.decay_due, m.strength_rate,
         m.strength_floor, m.retention_rate, m.retention_scale, m.layer
} IN TRANSACTIONS OF 10000 ROWS
"""
# the background's write instant (the (user_id, created_at) index in descending order: one row read)
WRITTEN = """
MATCH (m:Memory) WHERE m.user_id = $u AND m.created_at IS NOT NULL
RETURN m.created_at AS t ORDER BY m.created_at DESC LIMIT 1
"""
JOBS_AGE = timedelta(days=30)  # the jobs' clock: this long after the background was written


class SynthEmbedder:
    """Deterministic synthetic vectors: a text's base sentence (or, for any other text, a base chosen by
    its hash) plus seeded Gaussian noise. Formation texts are precomputed into ``cache`` before timing."""

    dimension = 384

    def __init__(self, base: np.ndarray) -> None:
        self.base = base
        self.bases: dict[str, int] = {}
        self.cache: dict[str, tuple[float, ...]] = {}  # tuples: see baselines.CachingEmbedder

    def vector(self, text: str) -> list[float]:
        seed = zlib.crc32(text.encode())
        v = self.base[self.bases.get(text, seed % len(self.base))] + np.random.default_rng(seed).normal(
            0, SIGMA, self.base.shape[1]
        )
        return [float(x) for x in v / np.linalg.norm(v)]

    def precompute(self, texts: Sequence[str]) -> None:
        for t in texts:
            if t not in self.cache:
                self.cache[t] = tuple(self.vector(t))

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.precompute(texts)
        return [list(self.cache[t]) for t in texts]


class QueryEmbedder:
    """Query vectors looked up, not computed (recall 'without the query embedding')."""

    dimension = 384

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.vectors[t] for t in texts]

    def alias(self, mem: GraphMemory, user: str, queries: Sequence[str]) -> None:
        """Each query's vector also under the text recall embeds for ``user``: the query less the tenant's
        speakers' names (graphmem.retrieval.search.embed_queries)."""
        speakers = tenant_profile(mem.runtime, [user]).speakers
        for q in queries:
            self.vectors.setdefault(vector_query(q, speakers), self.vectors[q])


def plan_for(size: int, args: argparse.Namespace) -> dict[str, Any]:
    """Background tenants (bare rows) and formation users for one size."""
    formed = max(500, min(args.formation, size // 10))
    background = [(f"{args.prefix}big", size // 10), (f"{args.prefix}small", 1000)]
    rest, i, tenant = size - sum(n for _, n in background) - formed - args.fact_memories, 0, size // 20
    while rest > 0:
        background.append((f"{args.prefix}other-{i}", min(tenant, rest)))
        rest -= tenant
        i += 1
    users = [f"{args.prefix}form-{i}" for i in range(formed // 500)]
    return {"background": background, "formation_users": users, "facts_user": f"{args.prefix}facts"}


def conversation(rng: random.Random, texts: list[str], n: int) -> list[tuple[str, int]]:
    """n message texts, each with the index of the base sentence its vector derives from."""
    out = []
    for i in range(n):
        p = rng.randrange(len(texts))
        extra = rng.random()
        text = texts[p]
        if extra < 0.35:
            text = f"{text[:-1]} with {rng.choice(PEOPLE)}."
        elif extra < 0.55:
            text = f"{text[:-1]} in {rng.choice(PLACES)}."
        elif extra < 0.62:
            text = f"I live in {rng.choice(PLACES)} now, so {text[0].lower()}{text[1:]}"
        out.append((f"{text} ({i})" if rng.random() < 0.1 else text, p))
    return out


def formation_parts(
    emb: SynthEmbedder, texts: list[str], user: str, n: int, seed: int
) -> list[list[dict[str, Any]]]:
    msgs = conversation(random.Random(seed), texts, n)
    for content, p in msgs:
        key = embedding_text(
            MemoryDraft(content=content, user_id=user, role="user", speaker="Sam"),
            fact_patterns.extract(content),
        )
        emb.bases[key] = p
        emb.precompute([key])
    names = [m.name for ex in PatternExtractor().extract([c for c, _ in msgs]) for m in ex.entities]
    emb.precompute(names)
    return ingest.batches([c for c, _ in msgs], 50)


def ingestion(
    mem: GraphMemory, emb: SynthEmbedder, texts: list[str], plan: dict[str, Any], args: argparse.Namespace
) -> dict[str, Any]:
    users = [*plan["formation_users"], plan["facts_user"]]
    parts = {
        u: formation_parts(emb, texts, u, 500 if u != plan["facts_user"] else args.fact_memories, i)
        for i, u in enumerate(users)
    }
    mirrors = {u: u.replace("-form-", "-bare-").replace("-facts", "-bare-facts") for u in users}
    with console.status("deleting earlier formation users"):
        ingest.wipe(mem, [*users, *mirrors.values()])
    # one untimed batch through each path first, on throwaway users: the server plans each statement on its
    # first run per parameter shape (formation's dozen statements ~1-5 s on a fresh server), which a serving
    # process pays once; both timed arms then run on warm plans
    warm = f"{users[0]}-warm"
    with console.status("warming both write paths (one untimed batch each)"):
        ingest.run_bare(mem, parts[users[0]][:1], emb, f"{warm}-bare")  # type: ignore[arg-type]
        ingest.run_formation(mem, parts[users[0]][:1], warm, "warm-up")
        ingest.wipe(mem, [warm, f"{warm}-bare"])
    bare_s = sum(ingest.run_bare(mem, parts[u], emb, mirrors[u]) for u in users)  # type: ignore[arg-type]
    with console.status("deleting the bare mirror rows"):
        ingest.wipe(mem, list(mirrors.values()))
    formation_s = sum(ingest.run_formation(mem, parts[u], u, f"formation {u}") for u in users)
    n = sum(len(m) for u in users for m in parts[u])
    started = time.perf_counter()
    facts_user, t0 = plan["facts_user"], datetime(2023, 1, 2, tzinfo=UTC)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("fact histories (set_fact)", total=args.fact_keys * args.fact_versions)
        for v in range(args.fact_versions):
            for key in FACT_KEYS[: args.fact_keys]:
                mem.facts.set(facts_user, key, f"{key} value {v}", valid_from=t0 + timedelta(days=7 * v))
                progress.advance(task)
    facts_s = time.perf_counter() - started
    return {
        "memories": n,
        "users": len(users),
        "session_messages": 50,
        "formation_s": round(formation_s, 2),
        "formation_per_s": round(n / formation_s, 1),
        "bare_s": round(bare_s, 2),
        "bare_per_s": round(n / bare_s, 1),
        "ratio_formation_to_bare": round(bare_s / formation_s, 3),
        "fact_versions": args.fact_keys * args.fact_versions,
        "set_fact_per_s": round(args.fact_keys * args.fact_versions / facts_s, 1),
    }


def recall_latency(
    mem: GraphMemory, fast: GraphMemory, users: dict[str, str], queries: list[str], vectors: dict[str, Any]
) -> dict[str, Any]:
    store = mem.runtime.store
    out: dict[str, Any] = {}
    for label, user in users.items():
        fast.runtime.embedder.alias(fast, user, queries)  # type: ignore[attr-defined]
        count = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN count(m) AS n", {"u": user})[0]["n"]
        row: dict[str, Any] = {"user": user, "memories": count}
        with console.status(f"recall latency: {label} tenant ({count:,} memories)"):
            # the first pass over the queries reads the tenant's memories from disk where the page cache
            # does not hold them yet (the 1M store is larger than it): reported apart, then every variant is
            # timed over a warmed tenant, as a serving process sees it
            row["first_pass"] = scale_recall.timed(
                lambda q, u=user: fast.recall(q, user_id=u, k=10, hops=3, reinforce=False),
                queries,
                warm_up=False,
            )
            variants = {
                f"recall_{graph}_{name}": (
                    lambda q, m=m, h=hops, u=user: m.recall(q, user_id=u, k=10, hops=h, reinforce=False)
                )
                for name, m in (("no_embedding", fast), ("with_embedding", mem))
                for hops, graph in ((3, "graph"), (0, "no_graph"))
            }
            row |= scale_recall.timed_together(variants, queries)
            # the bare queries after the variants, each after a whole untimed pass: timed first with one
            # warm-up call, on a store larger than its page cache, the unfiltered one met the pages the
            # previous tenant left (round 35: p50 31.8 ms, 3-4 ms warm) and the ratio compared a cold floor
            # with a warm recall; timed among the variants, its walk over the whole index evicted the
            # recall's pages (the 1M store's large tenant: recall p50 42.3 ms that way, 32.8 in the run
            # before)
            row |= scale_recall.bare_vector_queries(
                store, vectors, user, queries, tenant=mem.runtime.vector_filter.ready(store), warm=True
            )
        row["round_trips"] = {
            f"recall_{graph}": len(
                roundtrips.count(
                    fast,
                    lambda m, h=hops, u=user: m.recall(queries[0], user_id=u, k=10, hops=h, reinforce=False),
                )
            )
            for hops, graph in ((3, "graph"), (0, "no_graph"))
        }
        base = row["bare_vector_index"]["p50_ms"]
        row["ratio_p50_to_bare"] = {
            k: round(v["p50_ms"] / base, 2) for k, v in row.items() if k.startswith("recall_")
        }
        out[label] = row
    return out


def as_of_latency(
    fast: GraphMemory, user: str, queries: list[str], args: argparse.Namespace
) -> dict[str, Any]:
    """Recall as of a time (transaction time: a point during the user's ingestion, so part of its memories
    are visible) and get_fact as of a valid time inside the fact histories."""
    fast.runtime.embedder.alias(fast, user, queries)  # type: ignore[attr-defined]
    rng = random.Random(5)
    t0, span = datetime(2023, 1, 2, tzinfo=UTC), 7 * args.fact_versions
    valid = {q: t0 + timedelta(days=rng.uniform(0, span)) for q in queries}
    first, last = fast.query(
        "MATCH (m:Memory) WHERE m.user_id = $u RETURN min(m.recorded_at) AS a, max(m.recorded_at) AS b",
        {"u": user},
    )[0].values()
    first, last = (getattr(t, "to_native", lambda t=t: t)() for t in (first, last))
    recorded = {q: first + (last - first) * rng.uniform(0.2, 1.0) for q in queries}
    keys = FACT_KEYS[: args.fact_keys]
    with console.status("as_of latency"):
        res = {
            "user": user,
            "fact_versions": args.fact_keys * args.fact_versions,
            "recall_as_of": scale_recall.timed(
                lambda q: fast.recall(q, user_id=user, k=10, as_of=recorded[q], reinforce=False), queries
            ),
            "recall_now": scale_recall.timed(
                lambda q: fast.recall(q, user_id=user, k=10, reinforce=False), queries
            ),
            "get_fact_as_of": scale_recall.timed(
                lambda q: fast.facts.get(user, keys[zlib.crc32(q.encode()) % len(keys)], as_of=valid[q]),
                queries,
            ),
            "get_fact_current": scale_recall.timed(
                lambda q: fast.facts.get(user, keys[zlib.crc32(q.encode()) % len(keys)]), queries
            ),
        }
    probe = fast.facts.get(user, keys[0], as_of=t0 + timedelta(days=7 * 3 + 1))
    res["check_get_fact_as_of_week_3"] = probe.value if probe else None
    res["check_mean_hits_as_of"] = statistics.fmean(
        len(fast.recall(q, user_id=user, k=10, as_of=recorded[q], reinforce=False)) for q in queries[:20]
    )
    return res


def timed_job(mem: GraphMemory, name: str, user: str | None, now: datetime) -> tuple[float, dict[str, Any]]:
    """One job run (all users when ``user`` is None): its seconds and counts; raises when it failed."""
    started = time.perf_counter()
    counts = jobs_throughput.job(mem, name, user, now)()  # type: ignore[arg-type]
    return time.perf_counter() - started, counts


def jobs(mem: GraphMemory, big: str, background: str) -> dict[str, Any]:
    """Decay and forget over every memory, associate over one tenant, each against a bare SET.

    The jobs' clock is the background's write instant plus ``JOBS_AGE``, not the wall clock: a kept store's
    memories then have the same age on every run (counted from the wall clock, a store kept for days crosses
    forget's retention threshold one morning and the job times stop being comparable)."""
    written: datetime = mem.query(WRITTEN, {"u": background})[0]["t"]  # query() returns native values
    now = written + JOBS_AGE
    batch = mem.automation.get_config().batch_size
    auto = jobs_throughput.auto
    out: dict[str, Any] = {
        "now": now.isoformat(timespec="seconds"),
        "background_written_at": written.isoformat(timespec="seconds"),
        "batch_size": batch,
    }
    with console.status("resetting what earlier runs' jobs wrote (an interrupted run's too)"):
        auto(mem, RESET)
    with console.status("jobs: bare SET over all memories"):
        out["bare_set_all_s"] = round(auto(mem, ALL_SET, now=now, batch=batch), 2)
    # decay's first run (most memories change status), its next daily run (the scheduled case), then forget
    for key, name, at in (("decay", "decay", now), ("decay_next_day", "decay", now + timedelta(days=1))):
        with console.status(f"jobs: {key} (all users)"):
            seconds, counts = timed_job(mem, name, None, at)
        out[key] = {"seconds": round(seconds, 2), "ratio_to_bare": round(seconds / out["bare_set_all_s"], 2)}
        out[key]["counts"] = counts
    with console.status("jobs: forget (all users)"):
        seconds, counts = timed_job(mem, "forget", None, now + timedelta(days=1))
    out["forget"] = {"seconds": round(seconds, 2), "ratio_to_bare": round(seconds / out["bare_set_all_s"], 2)}
    out["forget"]["counts"] = counts
    with console.status(f"jobs: bare SET over {big}"):
        # a new value: Neo4j skips a SET that writes the value a property already holds
        touch = now + timedelta(seconds=1)
        out["bare_set_big_s"] = round(
            auto(mem, jobs_throughput.BARE_SET, user=big, now=touch, batch=batch), 2
        )
        out["bare_set_fresh_value"] = True
    with console.status(f"jobs: associate ({big}), its first run"):
        # a kept store was associated by the last run, and associate then links only new memories (the
        # nightly case, a fraction of a second): unlink the tenant first so every run times the first one
        auto(mem, jobs_throughput.UNLINK, user=big)
        seconds, counts = timed_job(mem, "associate", big, now)
    out["associate"] = {
        "scope": big,
        "memories": mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN count(m) AS n", {"u": big})[0][
            "n"
        ],
        "seconds": round(seconds, 2),
        "ratio_to_bare": round(seconds / out["bare_set_big_s"], 2),
        "counts": counts,
    }
    with console.status("resetting what the jobs wrote, so the store is as built"):
        auto(mem, RESET)
    return out


def footprint(mem: GraphMemory, server: LocalServer, memories: int) -> dict[str, Any]:
    data = server.neo4j_home / "data"

    def du(path: Path) -> int:
        if not path.exists():
            return 0
        return int(subprocess.run(["du", "-sb", str(path)], capture_output=True, text=True).stdout.split()[0])

    store_b = du(data / "databases" / "neo4j")
    tx_b = du(data / "transactions" / "neo4j")
    heap = mem.query(
        "CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes "
        "RETURN attributes.HeapMemoryUsage.value.properties AS h"
    )[0]["h"]
    pid = server.status().pid
    rss = None
    if pid:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) * 1024
    per_m = 1e6 / memories
    gib = 2**30
    return {
        "store_bytes": store_b,
        "transaction_log_bytes": tx_b,
        "store_gib_per_million": round(store_b * per_m / gib, 2),
        "heap_used_gib": round(heap["used"] / gib, 2),
        "heap_max_gib": round(heap["max"] / gib, 2),
        "page_cache_configured": server.pagecache,
        "page_cache_used_bound_gib": round(min(store_b, _bytes(server.pagecache)) / gib, 2),
        "server_rss_gib": round(rss / gib, 2) if rss else None,
        "server_rss_gib_per_million": round(rss * per_m / gib, 2) if rss else None,
    }


def _bytes(size: str) -> int:
    return int(size[:-1]) * {"k": 2**10, "m": 2**20, "g": 2**30}[size[-1].lower()]


def measure(size: int, args: argparse.Namespace, texts: list[str], base: np.ndarray) -> dict[str, Any]:
    plan = plan_for(size, args)
    home = Path(str(args.home).format(size=size)).resolve()
    server = LocalServer(home, bolt_port=args.bolt_port, http_port=args.http_port)
    queries = random.Random(3).sample(texts, args.queries)
    vectors = {q: base[texts.index(q)].tolist() for q in queries}
    settings = Settings(record_recalls=False)
    emb = SynthEmbedder(base)
    try:
        status = server.start(progress=lambda msg: console.log(msg))
        connect = {"uri": status.bolt_uri, "auth": server.credentials()}
        with GraphMemory.connect(embedder=emb, settings=settings, **connect) as mem:  # type: ignore[arg-type]
            mem.init()
            scale_recall.await_indexes(mem)  # a new index populates first
            result: dict[str, Any] = stamp(
                neo4j_version(mem.query), size=size, home=str(home), embed_threads=args.embed_threads
            )
            chained = {plan["background"][0][0], plan["background"][1][0]}
            bulk = scale_recall.missing(mem, plan["background"]) > 0
            if bulk:  # the vector indexes are built once after the rows, not row by row at each commit
                for name in VECTOR_INDEXES:
                    mem.runtime.store.run_statement(query("schema_vector_index_drop"), {"name": name})
            rate = scale_recall.populate(mem, plan["background"], texts, base, chained)
            started = time.perf_counter()
            if bulk:
                mem.init()
            scale_recall.await_indexes(mem)  # also after a restart, which resumes a population
            if bulk:
                result["vector_index_build_s"] = round(time.perf_counter() - started, 1)
            result["background_bare_write_per_s"] = round(rate, 1) if rate else "reused"
            result["ingestion"] = ingestion(mem, emb, texts, plan, args)
            result["memories_in_database"] = mem.query("MATCH (m:Memory) RETURN count(m) AS n")[0]["n"]
            result["users"] = mem.query("MATCH (m:Memory) RETURN count(DISTINCT m.user_id) AS n")[0]["n"]
            fast = GraphMemory(mem.runtime.store, QueryEmbedder(vectors), settings)  # type: ignore[arg-type]
            live = GraphMemory(mem.runtime.store, OnnxEmbedder(threads=args.embed_threads), settings)
            live.warm()  # as a serving process starts (graphmem api / mcp): model, plans, gc.freeze
            tenants = {
                "small": plan["background"][1][0],
                "formed": plan["formation_users"][0],
                "large": plan["background"][0][0],
            }
            result["recall"] = recall_latency(live, fast, tenants, queries, vectors)
            result["as_of"] = as_of_latency(fast, plan["facts_user"], queries, args)
            big, small = plan["background"][0], plan["background"][1]
            result["jobs"] = jobs(mem, big[0] if big[1] <= args.associate_max else small[0], big[0])
            result["footprint"] = footprint(mem, server, result["memories_in_database"])
    finally:
        with console.status("stopping the scale server"):
            server.stop()
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument(
        "--formation", type=int, default=5000, help="memories written through formation (cap)"
    )
    parser.add_argument("--fact-keys", type=int, default=5)
    parser.add_argument("--fact-versions", type=int, default=50)
    parser.add_argument("--fact-memories", type=int, default=200)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument(
        "--associate-max", type=int, default=100_000, help="associate on the large tenant up to this size"
    )
    parser.add_argument("--prefix", default="scale-")
    parser.add_argument("--home", default="benchmarks/cache/scale-{size}")
    parser.add_argument("--bolt-port", type=int, default=7688)
    parser.add_argument("--http-port", type=int, default=7475)
    parser.add_argument("--out", type=Path, default=RESULTS / "scale.json")
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite scale.md and the plots from the JSON"
    )
    parser.add_argument(
        "--embed-threads",
        type=int,
        default=1,
        help="onnxruntime threads for query embeddings (all cores thrash when other processes share them)",
    )
    args = parser.parse_args(argv)
    if args.report_only:
        write_report(json.loads(args.out.read_text()), args.out)
        return
    texts = scale_recall.sentences(3000)
    base = scale_recall.base_vectors(OnnxEmbedder(), texts)
    report = json.loads(args.out.read_text()) if args.out.exists() else {}
    sizes = {r["size"]: r for r in report.get("sizes", [])}
    for size in sorted(args.sizes):
        console.rule(f"{size:,} memories")
        sizes[size] = measure(size, args, texts, base)
        report = {
            "synthetic_vectors": f"perturbed bge-small embeddings of {len(texts):,} template sentences "
            f"(sigma {SIGMA}), renormalised",
            "sizes": [sizes[s] for s in sorted(sizes)],
        }
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2, default=str))
        write_report(report, args.out)
        console.print(f"[green]{size:,}: done[/green]")


if __name__ == "__main__":
    main()
