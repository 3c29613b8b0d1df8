"""Recall latency at scale: a large and a small tenant among many memories, against a bare vector query.

    .venv/bin/python benchmarks/scale_recall.py --total 1000000 --big-user 100000

Memories are synthetic: sentences built from templates, and vectors SYNTHESISED by perturbing the real
MiniLM embeddings of a few thousand of those sentences (Gaussian noise, renormalised): embedding a million
texts on two cores would take about an hour. Rows are written with a bare UNWIND ... CREATE (the same
shape formation writes, with FOLLOWS chains per session for the two measured tenants); a rerun reuses
them. Base embeddings are cached under benchmarks/cache/.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress

from graphmem import GraphMemory, SentenceTransformerEmbedder, Settings
from graphmem.embedding import Embedder, embedder_name
from graphmem.formation.writer import user_key
from graphmem.retrieval import recall as recall_use_case
from graphmem.server import LocalServer

console = Console()
CACHE = Path(__file__).parent / "cache"
SUBJECTS = [
    "I",
    "My sister",
    "Tom",
    "Our team",
    "My neighbour",
    "The doctor",
    "Grandma",
    "My boss",
    "Emma",
    "We",
]
VERBS = [
    "visited",
    "talked about",
    "booked",
    "cooked",
    "fixed",
    "painted",
    "read about",
    "planned",
    "bought",
    "lost",
]
OBJECTS = [
    "the old bakery on Main Street",
    "a trip to Lisbon",
    "the garden shed",
    "a vintage camera",
    "the quarterly report",
    "a pottery class",
    "the new vegan restaurant",
    "a marathon in October",
    "the leaking roof",
    "a jazz concert",
    "the dentist appointment",
    "a birthday present for Sam",
    "the hiking trail near the lake",
    "a chess tournament",
    "the broken dishwasher",
    "a photography workshop",
    "the piano lessons",
    "a camping weekend",
    "the tax forms",
    "a volunteer shift at the shelter",
]
TIMES = [
    "yesterday",
    "last week",
    "this morning",
    "on Sunday",
    "in March",
    "after work",
    "before lunch",
    "at night",
]


BARE_CREATE = (
    "UNWIND $rows AS r CREATE (m:Memory {id: r.id, user_id: $u, user_key: $k, content: r.content,"
    " session_id: r.session, status: 'active', memory_type: 'episodic', priority: 'P2',"
    " importance: 0.5, strength: 1.0, retention: 1.0, access_count: 0, confidence: 1.0,"
    " created_at: datetime(), recorded_at: datetime(), occurred_at: datetime(), version: 1,"
    " synthetic: true}) WITH m, r CALL db.create.setNodeVectorProperty(m, 'embedding', r.embedding)"
)


def sentences(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = set()
    while len(out) < n:
        out.add(f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(TIMES)}.")
    return sorted(out)


def base_vectors(embedder: Embedder, texts: list[str]) -> np.ndarray:
    CACHE.mkdir(exist_ok=True)
    name = embedder_name(embedder).replace("/", "_")
    path = CACHE / f"base-{len(texts)}-{name}.npy"
    if path.exists():
        return np.load(path)
    vectors = np.array(embedder.embed(texts), dtype=np.float32)
    np.save(path, vectors)
    return vectors


def await_indexes(mem: GraphMemory, poll: float = 10.0) -> None:
    """Wait until every index is online, polling (one ``db.awaitIndexes`` call would outlast the client's
    transaction timeout while a million vectors are indexed)."""
    with Progress(console=console) as progress:
        task = progress.add_task("indexes populating", total=100.0)
        while True:
            rows = mem.query("SHOW INDEXES YIELD state, populationPercent RETURN state, populationPercent")
            pending = [r for r in rows if r["state"] != "ONLINE"]
            if any(r["state"] == "FAILED" for r in pending):
                raise RuntimeError("an index failed to populate: SHOW INDEXES names it")
            if not pending:
                progress.update(task, completed=100.0)
                return
            progress.update(task, completed=min(float(r["populationPercent"] or 0.0) for r in pending))
            time.sleep(poll)


def missing(mem: GraphMemory, plan: list[tuple[str, int]]) -> int:
    """How many of the planned background memories are not written yet."""
    rows = mem.query(
        "UNWIND $plan AS p OPTIONAL MATCH (m:Memory) WHERE m.user_id = p[0] "
        "WITH p, count(m) AS have RETURN sum(CASE WHEN have < p[1] THEN p[1] - have ELSE 0 END) AS n",
        {"plan": [[u, n] for u, n in plan]},
    )
    return int(rows[0]["n"] or 0)


def populate(
    mem: GraphMemory, plan: list[tuple[str, int]], texts: list[str], base: np.ndarray, chained: set[str]
) -> float:
    """Create the synthetic memories (skipping tenants already complete); returns memories/s written."""
    rng = np.random.default_rng(11)
    written, started = 0, time.perf_counter()
    driver, db = mem.runtime.store.driver, mem.runtime.store.database
    with Progress(console=console) as progress:
        task = progress.add_task("writing synthetic memories", total=sum(n for _, n in plan))
        for user, count in plan:
            have = mem.query("MATCH (m:Memory) WHERE m.user_id = $u RETURN count(m) AS n", {"u": user})[0][
                "n"
            ]
            if have >= count:
                progress.advance(task, count)
                continue
            ukey = user_key(user)
            for start in range(have, count, 2000):
                n = min(2000, count - start)
                pick = rng.integers(0, len(texts), n)
                vecs = base[pick] + rng.normal(0, 0.04, (n, base.shape[1])).astype(np.float32)
                vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
                rows = [
                    {
                        "id": f"{user}-{start + i}",
                        "content": texts[p],
                        "embedding": v.tolist(),
                        "session": f"s{(start + i) // 20}",
                        "seq": start + i,
                    }
                    for i, (p, v) in enumerate(zip(pick, vecs, strict=True))
                ]
                driver.execute_query(
                    BARE_CREATE,
                    {"rows": rows, "u": user, "k": ukey},
                    database_=db,
                )
                if user in chained:
                    pairs = [
                        {"a": rows[i]["id"], "b": rows[i + 1]["id"]}
                        for i in range(n - 1)
                        if rows[i]["session"] == rows[i + 1]["session"]
                    ]
                    driver.execute_query(
                        "UNWIND $pairs AS p MATCH (a:Memory {id: p.a}), (b:Memory {id: p.b})"
                        " CREATE (a)-[:FOLLOWS {weight: 1.0, kind: 'session', recorded_at: datetime()}]->(b)",
                        {"pairs": pairs},
                        database_=db,
                    )
                written += n
                progress.advance(task, n)
    seconds = time.perf_counter() - started
    return written / seconds if written else 0.0


def percentiles(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return {
        "p50_ms": pick(0.50),
        "p95_ms": pick(0.95),
        "p99_ms": pick(0.99),
        "mean_ms": statistics.fmean(s),
        "n": len(s),
    }


def timed(fn: Callable[[str], object], queries: list[str], *, warm_up: bool = True) -> dict[str, float]:
    """p50/p95/p99 of ``fn`` over ``queries``; with ``warm_up``, after one untimed call (query plans)."""
    if warm_up:
        fn(queries[0])
    samples = []
    for q in queries:
        start = time.perf_counter()
        fn(q)
        samples.append((time.perf_counter() - start) * 1000)
    return percentiles(samples)


def timed_together(
    fns: dict[str, Callable[[str], object]], queries: list[str]
) -> dict[str, dict[str, float]]:
    """p50/p95/p99 of each of ``fns`` over ``queries``, interleaved: query by query, every variant in an order
    that rotates, after one untimed call each. Timed one variant after another, the first met the cache
    state the earlier ones left (on a store larger than its page cache, its p95 was 1.5-2.5x the next
    one's for the same tenant); interleaved, each meets the same."""
    for fn in fns.values():
        fn(queries[0])
    names = list(fns)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for i, q in enumerate(queries):
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            fns[name](q)
            samples[name].append((time.perf_counter() - start) * 1000)
    return {name: percentiles(s) for name, s in samples.items()}


BARE_VECTOR = (
    "CALL db.index.vector.queryNodes('memory_embedding', 10, $e) YIELD node, score RETURN node.id, score"
)
BARE_TENANT_VECTOR = (
    "CYPHER 25 MATCH (m:Memory) SEARCH m IN (VECTOR INDEX memory_embedding FOR $e "
    "WHERE m.user_id = $u LIMIT 10) SCORE AS score RETURN m.id, score"
)


def bare_vector_fns(
    store: Any, vectors: dict[str, Any], user: str, *, tenant: bool
) -> dict[str, Callable[[str], object]]:
    """The bare vector-index query (unfiltered top 10) and, with ``tenant``, the tenant's own top 10 filtered
    in the index (Neo4j 2026.01+), as one callable per query text."""

    def run(cypher: str, params: dict[str, Any]) -> object:
        return store.driver.execute_query(cypher, params, database_=store.database)

    fns: dict[str, Callable[[str], object]] = {
        "bare_vector_index": lambda q: run(BARE_VECTOR, {"e": vectors[q]})
    }
    if tenant:
        fns["bare_tenant_vector"] = lambda q: run(BARE_TENANT_VECTOR, {"e": vectors[q], "u": user})
    return fns


def bare_vector_queries(
    store: Any, vectors: dict[str, Any], user: str, queries: list[str], *, tenant: bool, warm: bool = False
) -> dict[str, dict[str, float]]:
    """:func:`bare_vector_fns`, each timed over ``queries`` on its own; ``warm``: after one untimed pass over
    all of them (on a store larger than its page cache one call warms little: the unfiltered query walks
    the whole index)."""
    out = {}
    for name, fn in bare_vector_fns(store, vectors, user, tenant=tenant).items():
        for q in queries if warm else ():
            fn(q)
        out[name] = timed(fn, queries)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--total", type=int, default=1_000_000)
    parser.add_argument("--big-user", type=int, default=100_000)
    parser.add_argument("--small-user", type=int, default=1_000)
    parser.add_argument("--tenant-size", type=int, default=50_000, help="size of the other tenants")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--prefix", default="scale-")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/scale_recall.json"))
    parser.add_argument(
        "--server-home",
        type=Path,
        default=Path("benchmarks/cache/scale-1000000"),
        help="home of a separate local server for the synthetic data ('shared': the default server)",
    )
    parser.add_argument("--bolt-port", type=int, default=7688)
    parser.add_argument("--http-port", type=int, default=7475)
    args = parser.parse_args(argv)

    embedder = SentenceTransformerEmbedder()
    texts = sentences(3000)
    base = base_vectors(embedder, texts)
    big, small = f"{args.prefix}big", f"{args.prefix}small"
    plan = [(big, args.big_user), (small, args.small_user)]
    rest, i = args.total - args.big_user - args.small_user, 0
    while rest > 0:
        plan.append((f"{args.prefix}other-{i}", min(args.tenant_size, rest)))
        rest -= args.tenant_size
        i += 1
    queries = random.Random(3).sample(texts, args.queries)
    cached = {q: v for q, v in zip(queries, embedder.embed(queries), strict=True)}

    class Cached:
        dimension = 384

        def embed(self, batch: list[str]) -> list[list[float]]:
            return [cached[t] for t in batch]

    settings = Settings(record_recalls=False)
    connect: dict[str, Any] = {}
    if str(args.server_home) != "shared":
        server = LocalServer(args.server_home.resolve(), bolt_port=args.bolt_port, http_port=args.http_port)
        status = server.start(progress=lambda msg: console.log(msg))
        connect = {"uri": status.bolt_uri, "auth": server.credentials()}
    with GraphMemory.connect(embedder=embedder, settings=settings, **connect) as mem:
        mem.init()
        rate = populate(mem, plan, texts, base, {big, small})
        total = mem.query("MATCH (m:Memory) RETURN count(m) AS n")[0]["n"]
        fast = GraphMemory(mem.runtime.store, Cached(), settings)  # type: ignore[arg-type]
        rt = fast.runtime
        results: dict[str, Any] = {}
        for user in (big, small):

            def request(q: str, hops: int, u: str = user) -> recall_use_case.RecallRequest:
                return recall_use_case.RecallRequest(q, u, 10, None, hops, None, False)

            results[user] = {
                "memories": dict(plan)[user],
                "bare_vector_index_query": timed(
                    lambda q: rt.store.driver.execute_query(
                        "CALL db.index.vector.queryNodes('memory_embedding', 10, $e) YIELD node, score "
                        "RETURN node.id, score",
                        {"e": cached[q]},
                        database_=rt.store.database,
                    ),
                    queries,
                ),
                "recall_graph_embedding_excluded": timed(
                    lambda q: recall_use_case.recall(rt, request(q, 3)), queries
                ),
                "recall_no_graph_embedding_excluded": timed(
                    lambda q: recall_use_case.recall(rt, request(q, 0)), queries
                ),
                "recall_graph_embedding_included": timed(
                    lambda q, u=user: mem.recall(q, user_id=u, k=10, reinforce=False), queries
                ),
            }
            r = results[user]
            r["ratio_p50_graph_recall_to_bare"] = (
                r["recall_graph_embedding_excluded"]["p50_ms"] / r["bare_vector_index_query"]["p50_ms"]
            )
        version = mem.query("CALL dbms.components() YIELD versions RETURN versions[0] AS v")[0]["v"]
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "neo4j": version},
        "synthetic_vectors": "perturbed MiniLM embeddings of 3,000 template sentences (sigma 0.04)",
        "memories_in_database": total,
        "write_rate_per_s": rate,
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    console.print_json(json.dumps(report))


if __name__ == "__main__":
    main()
