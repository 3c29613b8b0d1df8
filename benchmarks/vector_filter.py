"""In-index tenant filtering against over-fetching, at 1M vectors (the measurement behind the switch to
Neo4j 2026.01, docs/recall.md).

    .venv/bin/python benchmarks/vector_filter.py load  --uri bolt://127.0.0.1:7699 --password PW
    .venv/bin/python benchmarks/vector_filter.py time  --uri bolt://127.0.0.1:7699 --password PW
    .venv/bin/python benchmarks/vector_filter.py recall --uri bolt://127.0.0.1:7699 --password PW

Point it at a Neo4j 2026.01+ server of its own (it writes 1M ``:VectorBench`` nodes, not graphmem's labels):
e.g. a second ``LocalServer(home, bolt_port=7699, http_port=7479)``. ``load`` writes 1M nodes of 384-dim
vectors (perturbed bge-small embeddings of the LoCoMo turns in ``--base``, sigma 0.04, renormalised, seeded):
a 100,000-node tenant ``big``, a 1,000-node tenant ``small`` and 40 others; the vector index (with
``user_id`` as a filter property) is created after the rows, so it is built once. ``time`` gives p50/p95 of
100 queries after 5 warm-ups: the unfiltered top 100, the big tenant's top 100 over-fetched (2,000, filtered
after, as on 5.26) and filtered inside the index (asked for 100/200/400), and the small tenant's.
``recall`` gives each plan's recall@100 against the tenant's exact top 100 (30 queries).

Round 13 ran these steps by hand on 2026.01.4 (heap and page cache 4 GiB; the load was interrupted once,
so ``small`` held 2,000 nodes); the figures are in docs/recall.md and docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np
from neo4j import GraphDatabase

N, BIG, SMALL, DIM = 1_000_000, 100_000, 1_000, 384
INDEX = (
    "CYPHER 25 CREATE VECTOR INDEX vector_bench IF NOT EXISTS FOR (v:VectorBench) ON v.embedding "
    "WITH [v.user_id] "
    "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}"
)
EXACT = (
    "MATCH (v:VectorBench {user_id: $u}) WITH v, vector.similarity.cosine(v.embedding, $q) AS s "
    "ORDER BY s DESC LIMIT 100 RETURN elementId(v) AS i"
)
FILTERED = (
    "CYPHER 25 MATCH (v:VectorBench) SEARCH v IN (VECTOR INDEX vector_bench FOR $q WHERE v.user_id = $u "
    "LIMIT $lim) SCORE AS s WITH v, s ORDER BY s DESC LIMIT 100 RETURN elementId(v) AS i"
)
OVERFETCH = (
    "CALL db.index.vector.queryNodes('vector_bench', $lim, $q) YIELD node, score WITH node, score "
    "WHERE node.user_id = $u RETURN elementId(node) AS i ORDER BY score DESC LIMIT 100"
)
BARE = (
    "CALL db.index.vector.queryNodes('vector_bench', 100, $q) YIELD node, score RETURN elementId(node), score"
)


def vectors(base: np.ndarray, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = base[rng.integers(0, len(base), n)] + rng.normal(0, 0.04, (n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def tenant(i: int) -> str:
    return "big" if i < BIG else "small" if i < BIG + SMALL else f"other-{i % 40}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("step", choices=["load", "time", "recall"])
    parser.add_argument("--uri", default="bolt://127.0.0.1:7699")
    parser.add_argument("--password", required=True)
    parser.add_argument("--base", type=Path, default=Path("/tmp/lab/emb.json"), help="{text: vector} JSON")
    args = parser.parse_args()
    driver = GraphDatabase.driver(args.uri, auth=("neo4j", args.password))
    base = np.array(list(json.loads(args.base.read_text()).values())[:3000], dtype=np.float32)
    if args.step == "load":
        started = time.time()
        for start in range(0, N, 5000):
            v = vectors(base, 5000, start)
            rows = [{"i": start + j, "u": tenant(start + j), "e": v[j].tolist()} for j in range(5000)]
            driver.execute_query(
                "UNWIND $rows AS r CREATE (v:VectorBench {i: r.i, user_id: r.u}) "
                "WITH v, r CALL db.create.setNodeVectorProperty(v, 'embedding', r.e)",
                rows=rows,
            )
        print("written", round(time.time() - started), "s", flush=True)
        driver.execute_query(
            "CREATE INDEX vector_bench_user IF NOT EXISTS FOR (v:VectorBench) ON (v.user_id)"
        )
        driver.execute_query(INDEX)
        driver.execute_query("CALL db.awaitIndexes(7200)")
        print("indexed", round(time.time() - started), "s")
        return
    queries = vectors(base, 100, 999_999)
    if args.step == "time":

        def timed(label: str, cypher: str, **params: object) -> None:
            for q in queries[:5]:
                driver.execute_query(cypher, q=q.tolist(), **params)
            ms = []
            for q in queries:
                t = time.perf_counter()
                driver.execute_query(cypher, q=q.tolist(), **params)
                ms.append((time.perf_counter() - t) * 1000)
            ms.sort()
            print(f"{label:44s} p50 {statistics.median(ms):7.1f} p95 {ms[94]:7.1f}", flush=True)

        timed("bare top-100 (unfiltered)", BARE)
        for lim in (100, 200, 400):
            timed(f"filtered big LIMIT {lim} -> top 100", FILTERED, u="big", lim=lim)
        timed("overfetch 2000 -> big top 100", OVERFETCH, u="big", lim=2000)
        timed("filtered small LIMIT 200 -> top 100", FILTERED, u="small", lim=200)
        return

    def recall(cypher: str, user: str, **params: object) -> float:
        found = []
        for q in queries[:30]:
            got = {r["i"] for r in driver.execute_query(cypher, q=q.tolist(), u=user, **params).records}
            exact = {r["i"] for r in driver.execute_query(EXACT, q=q.tolist(), u=user).records}
            found.append(len(got & exact) / 100)
        return round(sum(found) / len(found), 3)

    for lim in (100, 200, 400):
        print(f"recall@100 filtered big LIMIT {lim}:", recall(FILTERED, "big", lim=lim), flush=True)
    print("recall@100 overfetch 2000 big:", recall(OVERFETCH, "big", lim=2000))
    print("recall@100 filtered small LIMIT 200:", recall(FILTERED, "small", lim=200))


if __name__ == "__main__":
    main()
