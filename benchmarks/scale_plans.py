"""Recall on a kept ``scale.py`` store with the vector indexes filtered by tenant (Neo4j 2026.01+) and with
the over-fetch plan of older servers, alternated on the same store, server and queries.

    .venv/bin/python benchmarks/scale_plans.py --size 1000000 --rounds 2

Needs the store of ``scale.py --sizes <size>`` (``benchmarks/cache/scale-<size>``); starts and stops its
server (7688/7475). Per tenant (small, formed, large) and round, each plan is timed over the same queries
(query vectors looked up, not embedded; ``k=10``, ``reinforce=False``), with and without the graph, plans
alternating so that neither always runs on a colder cache; next to the bare vector queries (unfiltered top
10, and the tenant's own top 10 filtered in the index). ``scale.py`` times each variant once, in a fixed
order, and its first block pays for a cold page cache (a 1M store is 6.6 GiB, the page cache 4 GiB).
Writes ``benchmarks/results/scale_plans_<size>.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

sys.path.insert(0, str(Path(__file__).parent))
import scale_recall
from machine import neo4j_version, stamp
from scale import QueryEmbedder, plan_for

from graphmem import GraphMemory, OnnxEmbedder, Settings
from graphmem.server import LocalServer
from graphmem.store.queries import FILTERED

console = Console()
RESULTS = Path(__file__).parent / "results"


def plan_calls(store: Any, run: Any) -> list[str]:
    """The query names ``run`` reads through ``store`` (which plan recall took)."""
    calls: list[str] = []
    real = store.read

    def counting(name: str, /, **params: Any) -> Any:
        calls.append(name)
        return real(name, **params)

    store.read = counting
    try:
        run()
    finally:
        del store.read
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--home", default="benchmarks/cache/scale-{size}")
    args = parser.parse_args()
    scale_args = argparse.Namespace(formation=5000, fact_memories=200, prefix="scale-")
    plan = plan_for(args.size, scale_args)
    texts = scale_recall.sentences(3000)
    base = scale_recall.base_vectors(OnnxEmbedder(), texts)
    queries = random.Random(3).sample(texts, args.queries)
    vectors = {q: base[texts.index(q)].tolist() for q in queries}
    tenants = {
        "small": plan["background"][1][0],
        "formed": plan["formation_users"][0],
        "large": plan["background"][0][0],
    }
    server = LocalServer(Path(args.home.format(size=args.size)).resolve(), bolt_port=7688, http_port=7475)
    settings = Settings(record_recalls=False)
    out: dict[str, Any] = {}
    try:
        status = server.start(progress=lambda msg: console.log(msg))
        connect = {"uri": status.bolt_uri, "auth": server.credentials()}
        with GraphMemory.connect(embedder=QueryEmbedder(vectors), settings=settings, **connect) as filtered:  # type: ignore[arg-type]
            store = filtered.runtime.store
            over = GraphMemory(store, QueryEmbedder(vectors), settings)  # type: ignore[arg-type]
            over.runtime.vector_filter.ready = lambda _store: False  # type: ignore[method-assign]
            assert filtered.runtime.vector_filter.ready(store), "the indexes do not filter by tenant"
            out = stamp(
                neo4j_version(filtered.query), size=args.size, rounds=args.rounds, queries=args.queries
            )
            for label, user in tenants.items():
                filtered.runtime.embedder.alias(filtered, user, queries)  # type: ignore[attr-defined]
                row: dict[str, Any] = {"user": user}
                row |= scale_recall.bare_vector_queries(store, vectors, user, queries, tenant=True)
                for r in range(args.rounds):
                    order = [("filtered", filtered), ("overfetch", over)]
                    for name, mem in order if r % 2 == 0 else order[::-1]:
                        for hops, graph in ((3, "graph"), (0, "no_graph")):
                            with console.status(f"{label}: round {r + 1}, {name}, {graph}"):
                                row[f"{name}_{graph}_round{r + 1}"] = scale_recall.timed(
                                    lambda q, m=mem, h=hops, u=user: m.recall(
                                        q, user_id=u, k=10, hops=h, reinforce=False
                                    ),
                                    queries,
                                )
                calls = plan_calls(
                    store, lambda u=user: filtered.recall(queries[0], user_id=u, k=10, reinforce=False)
                )
                row["filtered_plan_used"] = FILTERED + "recall_pool" in calls
                out[label] = row
                console.print(label, json.dumps(row, indent=1))
    finally:
        server.stop()
    path = RESULTS / f"scale_plans_{args.size}.json"
    path.write_text(json.dumps(out, indent=2, default=str))
    console.print(f"wrote {path}")


if __name__ == "__main__":
    main()
