"""LoCoMo evidence recall: graphmem against baselines on the same store and embedder, in one run.

    .venv/bin/python benchmarks/locomo.py --data ../shared/data/locomo/locomo-dev.json \
        --out benchmarks/results/recall_quality.json

Each conversation is ingested as one user (turns as memories, speaker and session date kept, dia_id in
metadata); every question is recalled with reinforce=False so questions cannot influence each other, and
evidence recall@5 / @10 is averaged per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop;
5 adversarial reported separately) and overall over categories 1-4.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from graphmem import GraphMemory, SentenceTransformerEmbedder, Settings, retrieval
from graphmem import recall as recall_use_case
from graphmem.config import PRESETS, RetrievalPreset
from graphmem.formation import user_key

sys.path.insert(0, str(Path(__file__).parent))
from locomo_ingest import ingest_locomo

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
EVIDENCE = re.compile(r"D(\d+):(\d+)")
KS = (5, 10)
console = Console()


class CachingEmbedder:
    """Wraps an embedder; texts embedded once are served from memory (to time recall without embedding)."""

    def __init__(self, inner: SentenceTransformerEmbedder) -> None:
        self.inner = inner
        self.cache: dict[str, list[float]] = {}
        self.hits = 0

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    @property
    def tokenizer(self) -> Any:
        return self.inner.tokenizer

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in texts if t not in self.cache]
        if missing:
            for text, vec in zip(missing, self.inner.embed(missing), strict=True):
                self.cache[text] = vec
        return [self.cache[t] for t in texts]


def evidence_ids(qa: dict[str, Any], known: set[str]) -> list[str]:
    found = [f"D{a}:{b}" for ev in qa.get("evidence", []) for a, b in EVIDENCE.findall(ev)]
    return [e for e in dict.fromkeys(found) if e in known]


Method = Callable[[GraphMemory, str, str, int], list[str]]


RECALL_OPTIONS: dict[str, Any] = {}


def method_graphmem(mem: GraphMemory, user: str, question: str, k: int) -> list[str]:
    return [h.memory.id for h in mem.recall(question, user_id=user, k=k, reinforce=False, **RECALL_OPTIONS)]


def method_hybrid(mem: GraphMemory, user: str, question: str, k: int) -> list[str]:
    return [h.memory.id for h in mem.recall(question, user_id=user, k=k, hops=0, reinforce=False)]


def method_vector(mem: GraphMemory, user: str, question: str, k: int) -> list[str]:
    embedding = mem.embedder.embed([question])[0]
    rows, _ = retrieval.vector_seeds(mem._rt, embedding, user_id=user, k=k, as_of=None)
    return [r["id"] for r in rows]


def method_bm25(mem: GraphMemory, user: str, question: str, k: int) -> list[str]:
    terms = retrieval.query_terms(question)
    if not terms:
        return []
    rows = mem._rt.store.read(
        "recall_fulltext", lucene=retrieval.lucene_query(terms, user_key(user)), user_id=user, k=k, as_of=None
    )
    return [r["id"] for r in rows]


METHODS: dict[str, Method] = {
    "vector (exact cosine)": method_vector,
    "bm25 (full-text index)": method_bm25,
    "hybrid (no graph)": method_hybrid,
    "graphmem (hybrid + activation)": method_graphmem,
}


def evaluate(
    mem: GraphMemory, data: list[dict[str, Any]], ingested: dict[str, Any], methods: dict[str, Method]
) -> dict[str, Any]:
    questions = []
    for sample in data:
        info = ingested["conversations"][sample["sample_id"]]
        id_of = info["dia_to_memory"]
        for qa in sample["qa"]:
            gold = evidence_ids(qa, set(id_of))
            if gold:
                questions.append(
                    (info["user_id"], qa["question"], int(qa["category"]), {id_of[g] for g in gold})
                )
    results: dict[str, Any] = {}
    kmax = max(KS)
    with Progress(console=console) as progress:
        for name, method in methods.items():
            task = progress.add_task(name, total=len(questions))
            per_cat: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
            for user, question, category, gold in questions:
                got = method(mem, user, question, kmax)
                for k in KS:
                    per_cat[category][k].append(len(gold & set(got[:k])) / len(gold))
                progress.advance(task)
            table: dict[str, Any] = {}
            for cat, label in CATEGORIES.items():
                if cat in per_cat:
                    table[label] = {f"R@{k}": statistics.fmean(per_cat[cat][k]) for k in KS}
                    table[label]["n"] = len(per_cat[cat][KS[0]])
            main = [v for c in (1, 2, 3, 4) for v in per_cat[c][KS[0]]]
            table["overall (1-4)"] = {
                f"R@{k}": statistics.fmean([v for c in (1, 2, 3, 4) for v in per_cat[c][k]]) for k in KS
            }
            table["overall (1-4)"]["n"] = len(main)
            results[name] = table
    return results


def latency(mem: GraphMemory, cached: CachingEmbedder, user: str, questions: list[str]) -> dict[str, Any]:
    """p50/p95 of recall with the query embedding excluded (cached) and included, and of a bare query."""

    def timed(fn: Callable[[str], object]) -> dict[str, float]:
        samples = []
        for q in questions:
            start = time.perf_counter()
            fn(q)
            samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        return {
            "p50_ms": samples[len(samples) // 2],
            "p95_ms": samples[int(len(samples) * 0.95) - 1],
            "n": len(samples),
        }

    cached.embed(questions)
    rt = mem._rt
    bare = timed(
        lambda q: rt.store.read(
            "recall_vector_index", user_id=user, embedding=cached.embed([q])[0], k=10, fetch=10, as_of=None
        )
    )
    excluded = timed(lambda q: recall_use_case.recall(rt, _request(q, user)))
    plain = GraphMemory(rt.store, cached.inner, rt.settings)
    included = timed(lambda q: plain.recall(q, user_id=user, k=10, reinforce=False))
    no_graph = timed(lambda q: recall_use_case.recall(rt, _request(q, user, hops=0)))
    return {
        "bare_vector_index_query": bare,
        "recall_embedding_excluded": excluded,
        "recall_embedding_included": included,
        "recall_no_graph_embedding_excluded": no_graph,
        "ratio_p50_recall_to_bare": excluded["p50_ms"] / bare["p50_ms"],
    }


def _request(q: str, user: str, hops: int = 3) -> recall_use_case.RecallRequest:
    return recall_use_case.RecallRequest(
        query=q, user_id=user, k=10, as_of=None, hops=hops, views=None, reinforce=False
    )


def reuse_ingestion(mem: GraphMemory, data: list[dict[str, Any]], prefix: str) -> dict[str, Any] | None:
    """The dia_id → memory map of an earlier ingestion, read back from memory metadata (None if absent)."""
    conversations = {}
    for sample in data:
        user = f"{prefix}{sample['sample_id']}"
        rows = mem.query("MATCH (m:Memory {user_id: $u}) RETURN m.id AS id, m.metadata AS md", {"u": user})
        if not rows:
            return None
        mapping = {json.loads(r["md"]).get("dia_id"): r["id"] for r in rows}
        conversations[sample["sample_id"]] = {"user_id": user, "dia_to_memory": mapping}
    return {"conversations": conversations, "reused": True}


def markdown(results: dict[str, Any]) -> str:
    cols = [*[c for c in CATEGORIES.values() if c != "adversarial"], "overall (1-4)", "adversarial"]
    lines = [
        "| method | " + " | ".join(f"{c} R@5 / R@10" for c in cols) + " |",
        "|---" * (len(cols) + 1) + "|",
    ]
    for name, table in results.items():
        cells = [f"{table[c]['R@5']:.3f} / {table[c]['R@10']:.3f}" if c in table else "-" for c in cols]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/recall_quality.json"))
    parser.add_argument("--user-prefix", default="locomo-")
    parser.add_argument("--methods", default="all", help="comma-separated method names, or all")
    parser.add_argument("--no-latency", action="store_true")
    parser.add_argument("--hops", type=int, default=3, help="activation hops for the graphmem method")
    parser.add_argument("--views", type=json.loads, help='view weights for graphmem, e.g. {"temporal": 1}')
    parser.add_argument(
        "--embedding-cache", type=Path, help="JSON file of question embeddings kept across runs"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="reuse an earlier ingestion with the same prefix"
    )
    parser.add_argument(
        "--set", action="append", default=[], metavar="FIELD=VALUE", help="override a retrieval preset field"
    )
    args = parser.parse_args(argv)
    data = json.loads(args.data.read_text())
    cached = CachingEmbedder(SentenceTransformerEmbedder())
    if args.embedding_cache and args.embedding_cache.exists():
        cached.cache.update(json.loads(args.embedding_cache.read_text()))
    RECALL_OPTIONS.update(hops=args.hops, views=args.views)
    overrides = dict(item.split("=", 1) for item in args.set)
    PRESETS["bench"] = RetrievalPreset.model_validate({**PRESETS["balanced"].model_dump(), **overrides})
    settings = Settings(retrieval_preset="bench", record_recalls=False)
    with GraphMemory.connect(embedder=cached, settings=settings) as mem:
        mem.init()
        started = time.perf_counter()
        reused = reuse_ingestion(mem, data, args.user_prefix) if args.reuse else None
        ingested = reused or ingest_locomo(mem, args.data, user_prefix=args.user_prefix)
        ingest_s = time.perf_counter() - started
        methods = METHODS if args.methods == "all" else {m: METHODS[m] for m in args.methods.split(",")}
        results = evaluate(mem, data, ingested, methods)
        lat = None
        if not args.no_latency:
            first = next(iter(ingested["conversations"].values()))
            qs = [qa["question"] for qa in data[0]["qa"]][:200]
            lat = latency(mem, cached, first["user_id"], qs)
        server = mem.query("CALL dbms.components() YIELD name, versions RETURN versions[0] AS v")[0]["v"]
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": _cpus(), "python": platform.python_version(), "neo4j": server},
        "data": str(args.data),
        "ingest": {k: v for k, v in ingested.items() if k != "conversations"} | {"seconds": ingest_s},
        "preset": PRESETS["bench"].model_dump(),
        "results": results,
        "latency": lat,
    }
    if args.embedding_cache:
        args.embedding_cache.write_text(json.dumps(cached.cache))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, default=str))
    args.out.with_suffix(".md").write_text(markdown(results) + "\n")
    table = Table(title="LoCoMo evidence recall (R@5 / R@10)")
    table.add_column("method")
    cols = ["multi-hop", "temporal", "open-domain", "single-hop", "overall (1-4)", "adversarial"]
    for c in cols:
        table.add_column(c)
    for name, res in results.items():
        table.add_row(name, *[f"{res[c]['R@5']:.3f}/{res[c]['R@10']:.3f}" if c in res else "-" for c in cols])
    console.print(table)
    if lat:
        console.print(json.dumps(lat, indent=2))


def _cpus() -> int:
    import os

    return os.cpu_count() or 0


if __name__ == "__main__":
    main()
