"""Cost of a filtered recall's second read (``recall_filtered``: graphmem.retrieval.filtered), large tenant.

    .venv/bin/python benchmarks/filtered_recall.py --size 1000000 \
        --out benchmarks/results/filtered_recall.json

Runs on a store benchmarks/scale.py built (home benchmarks/cache/scale-<size>, its own server on ports
7688/7475, started and stopped here; the shared server on 7687 is never touched). Its large tenant
(``scale-big``, size / 10 memories written bare: all episodic, untagged) gets tags for the run, removed at the
end: ``fr-30`` on 30 memories spread over the tenant, ``fr-5pct`` on every 20th. For each query (base
sentences of the store, embedded by the default embedder once, before timing), alternated within the query:

- ``pool``: recall's first read (``recall_pool``) as recall makes it, for comparison;
- ``filtered``: the second read alone for a tag on 30 memories, a tag on 5 % of them, a type none has
  (``procedural``: the type and tags are checked on every one of the tenant's memories, no cosine computed);
- ``recall``: recall end to end, unfiltered against ``tags: ["fr-30"]`` (the short path: three round trips).

Reports p50 / p95 (ms) per measure and the 1-minute load at the start and the end of each pass.
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
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import scale_recall

from graphmem import GraphMemory, OnnxEmbedder, Settings
from graphmem.config import BALANCED
from graphmem.formation.writer import user_key
from graphmem.model.recall_filter import check_filters
from graphmem.retrieval import filtered
from graphmem.retrieval.search import SearchRequest, embed_queries, fetch_pool
from graphmem.server import LocalServer
from graphmem.store.queries import query as statement

TAG = "UNWIND $ids AS id MATCH (m:Memory {id: id}) SET m.tags = [$tag]"
UNTAG = "UNWIND $ids AS id MATCH (m:Memory {id: id}) WHERE m.tags = [$tag] REMOVE m.tags"
FILTERS = {
    "tag_30": {"tags": ["fr-30"]},
    "tag_5pct": {"tags": ["fr-5pct"]},
    "type_none": {"memory_type": "procedural"},
}


def load() -> float:
    return round(os.getloadavg()[0], 2)


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def summary(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    return {
        "p50_ms": round(statistics.median(s), 1),
        "p95_ms": round(s[min(len(s) - 1, int(0.95 * len(s)))], 1),
        "n": len(s),
    }


def one_pass(mem: GraphMemory, tenant: str, queries: list[str], vectors: list[list[float]]) -> dict[str, Any]:
    """Every measure once per query, alternated within the query (each meets the same cache state)."""
    rt = mem.runtime
    samples: dict[str, list[float]] = {}
    started = load()
    for query, vector in zip(queries, vectors, strict=True):
        base = SearchRequest(query, tenant, user_key(tenant), 10, BALANCED, embedding=vector)
        samples.setdefault("pool", []).append(timed(partial(fetch_pool, rt, base)))
        for name, given in FILTERS.items():
            req = replace(base, filters=check_filters(given, max_metadata_bytes=10_000))
            empty = {"memories": [], "seeds": []}
            samples.setdefault(f"filtered_{name}", []).append(timed(partial(filtered.widen, rt, req, empty)))
        for name, only in (("unfiltered", None), ("tag_30", FILTERS["tag_30"])):
            call = partial(mem.recall, query, user_id=tenant, k=10, reinforce=False, filters=only)
            samples.setdefault(f"recall_{name}", []).append(timed(call))
    return {"load_1m": [started, load()]} | {name: summary(s) for name, s in samples.items()}


def profile(mem: GraphMemory, tenant: str, query: str, vector: list[float]) -> dict[str, list[str]]:
    """Each filter's plan for ``recall_filtered``, as the server ran it: operator, rows and db hits, the
    leaf (the tenant's index seek) first."""
    store, out = mem.runtime.store, {}
    for name, given in FILTERS.items():
        req = SearchRequest(query, tenant, user_key(tenant), 10, BALANCED, embedding=vector)
        only = check_filters(given, max_metadata_bytes=10_000)
        assert only is not None
        _, summary, _ = store.driver.execute_query(
            "PROFILE " + statement("recall_filtered"), filtered.params(req, only), database_=store.database
        )
        out[name] = _operators(summary.profile)
    return out


def _operators(plan: dict[str, Any]) -> list[str]:
    children = [line for child in plan.get("children", []) for line in _operators(child)]
    details = plan.get("args", {}).get("Details", "")
    return [
        *children,
        f"{plan['operatorType']} rows={plan.get('rows')} dbHits={plan.get('dbHits')} {details}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    home = Path(f"benchmarks/cache/scale-{args.size}").resolve()
    server = LocalServer(home, bolt_port=7688, http_port=7475)
    tenant, count = "scale-big", args.size // 10
    texts = scale_recall.sentences(3000)
    queries = random.Random(3).sample(texts, args.queries)
    tagged = {"fr-30": [f"{tenant}-{i}" for i in range(0, count, count // 30)][:30]}
    tagged["fr-5pct"] = [f"{tenant}-{i}" for i in range(1, count, 20)]
    settings = Settings(record_recalls=False)
    try:
        status = server.start()
        with GraphMemory.connect(
            uri=status.bolt_uri, auth=server.credentials(), embedder=OnnxEmbedder(), settings=settings
        ) as mem:
            for tag, ids in tagged.items():
                mem.runtime.store.run_statement(TAG, {"ids": ids, "tag": tag})
            try:
                vectors = embed_queries(mem.runtime, queries, [tenant])
                plans = profile(mem, tenant, queries[0], vectors[0])
                one_pass(mem, tenant, queries[:5], vectors[:5])  # warm: plans, page cache
                passes = [one_pass(mem, tenant, queries, vectors) for _ in range(args.passes)]
            finally:
                for tag, ids in tagged.items():
                    mem.runtime.store.run_statement(UNTAG, {"ids": ids, "tag": tag})
    finally:
        server.stop()
    result = {"size": args.size, "tenant_memories": count, "cpus": os.cpu_count(), "plans": plans}
    result["passes"] = passes
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
